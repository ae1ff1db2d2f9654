//! The line gate in front of rmcp's stdio transport: every line a client sends gets an
//! answer, as JSON-RPC 2.0 requires.
//!
//! rmcp drops what it cannot decode (logging it), so a client that sent garbage, a cut
//! line, invalid UTF-8, `NaN`, two objects on one line or a message over its 16 MiB
//! line limit waits forever; and a `tools/call` whose params do not fit decodes as an
//! unknown method (-32601). The gate reads stdin itself, a line at a time and never
//! holding more than [`MAX_LINE`] bytes, and decides per line:
//!
//! - blank: ignored (not a message);
//! - longer than [`MAX_LINE`]: skipped to its end, answered -32600 with the limit;
//! - not UTF-8 or not JSON: -32700 Parse error, with the request's id when it can be
//!   read (a line that is JSON once its invalid bytes or lone surrogate escapes such as
//!   `"\ud800"` are set aside), else id null;
//! - not one JSON-RPC 2.0 object (an array, a number, no `"jsonrpc": "2.0"`, a bad
//!   `id` or `method`): -32600 Invalid Request;
//! - `tools/call` whose params are not `{name: string, arguments?: object}`: -32602;
//! - a request rmcp's own message type cannot decode: -32602 (its method is known but
//!   its params are not what it takes);
//! - anything else is passed to rmcp unchanged.
//!
//! Answers the gate makes and rmcp's go to stdout through one writer, a whole line at a
//! time, so they never interleave mid-line.

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{json, Value};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The largest message accepted (bytes, without its line break): rmcp's own limit.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

/// What to do with one line.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    Ignore,
    Forward,
    Answer(Value),
}

/// One line read from the client.
pub enum Line {
    Whole(Vec<u8>),
    /// A line over [`MAX_LINE`]; its length in bytes (it was not kept).
    Oversized(usize),
}

/// Reads the next line, holding at most [`MAX_LINE`] bytes of it; None at the end.
pub async fn read_line<R: AsyncBufRead + Unpin>(input: &mut R) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut total = 0usize;
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(match (total, total > MAX_LINE) {
                (0, _) => None,
                (_, true) => Some(Line::Oversized(total)),
                _ => Some(Line::Whole(line)),
            });
        }
        let (take, done) = match memchr_newline(chunk) {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        total += take;
        if total <= MAX_LINE {
            line.extend_from_slice(&chunk[..take]);
        } else if !line.is_empty() {
            line = Vec::new(); // Drop what was kept: this line will not be decoded.
        }
        input.consume(take + usize::from(done));
        if done {
            return Ok(Some(if total > MAX_LINE {
                Line::Oversized(total)
            } else {
                Line::Whole(line)
            }));
        }
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// Decides what to do with one whole line.
pub fn judge(line: &[u8]) -> Verdict {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Ignore;
    }
    let text = match std::str::from_utf8(line) {
        Ok(t) => t,
        Err(e) => {
            return Verdict::Answer(error(
                readable_id(&String::from_utf8_lossy(line)),
                PARSE_ERROR,
                format!(
                    "Parse error: the line is not UTF-8 (byte {} starts an invalid sequence). Send each message as one line of UTF-8 JSON.",
                    e.valid_up_to()
                ),
            ))
        }
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let (id, why) = match without_lone_surrogates(text) {
                Some(clean) => (
                    readable_id(&clean),
                    "a string escapes a lone UTF-16 surrogate (such as \\ud800), which is not Unicode text. Send characters as UTF-8 or as a surrogate pair".to_string(),
                ),
                None => (Value::Null, format!("{e}. Send each message as one JSON object on its own line (no NaN or Infinity, strings escaped)")),
            };
            return Verdict::Answer(error(id, PARSE_ERROR, format!("Parse error: {why}.")));
        }
    };
    judge_value(value)
}

/// The id of the request `text` holds, when `text` is JSON and its id is valid; else null.
fn readable_id(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(obj)) => match obj.get("id") {
            Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
            _ => Value::Null,
        },
        _ => Value::Null,
    }
}

/// `text` with each `\u` escape of a lone surrogate replaced by `\ufffd`; None when it
/// has none. Backslashes occur only inside JSON strings, so no string tracking is needed.
fn without_lone_surrogates(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        let hex = bytes.get(at..at + 6)?;
        if &hex[..2] != b"\\u" {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    };
    let (mut out, mut i, mut found) = (String::with_capacity(text.len()), 0, false);
    let mut copied = 0;
    while let Some(step) = bytes[i..].iter().position(|&b| b == b'\\') {
        i += step;
        let Some(u) = unit(i) else {
            i += 2; // Any other escape: its two bytes.
            continue;
        };
        let paired = (0xD800..0xDC00).contains(&u)
            && unit(i + 6).is_some_and(|l| (0xDC00..0xE000).contains(&l));
        if paired {
            i += 12;
        } else if (0xD800..0xE000).contains(&u) {
            out.push_str(&text[copied..i]);
            out.push_str("\\ufffd");
            (i, copied, found) = (i + 6, i + 6, true);
        } else {
            i += 6;
        }
        i = i.min(bytes.len());
    }
    out.push_str(&text[copied..]);
    found.then_some(out)
}

fn judge_value(value: Value) -> Verdict {
    let Value::Object(obj) = &value else {
        let why = if value.is_array() {
            "batches (arrays) are not part of MCP; send one message per line"
        } else {
            "a message is a JSON object"
        };
        return Verdict::Answer(error(
            Value::Null,
            INVALID_REQUEST,
            format!("Invalid Request: {why}."),
        ));
    };
    let id = obj.get("id").cloned();
    let id_ok = matches!(id, None | Some(Value::String(_)) | Some(Value::Number(_)));
    let reply_id = if id_ok {
        id.clone().unwrap_or(Value::Null)
    } else {
        Value::Null
    };
    let method = obj.get("method");
    let is_response = obj.contains_key("result") || obj.contains_key("error");
    let invalid = |why: &str| {
        Verdict::Answer(error(
            reply_id.clone(),
            INVALID_REQUEST,
            format!("Invalid Request: {why}. A request is {{\"jsonrpc\": \"2.0\", \"id\": <number or string>, \"method\": <string>, \"params\": <object>}}."),
        ))
    };
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid("`jsonrpc` must be \"2.0\"");
    }
    if !id_ok {
        return invalid("`id` must be a number or a string");
    }
    if method.is_none() && !is_response {
        return invalid("it has no `method`");
    }
    if method.is_some_and(|m| !m.is_string()) {
        return invalid("`method` must be a string");
    }
    let is_request = method.is_some() && id.is_some();
    if method.and_then(Value::as_str) == Some("tools/call") {
        if let Some(why) = tool_call_params_problem(obj.get("params")) {
            // A notification gets no answer, even a wrong one.
            return match is_request {
                true => Verdict::Answer(error(reply_id, INVALID_PARAMS, why)),
                false => Verdict::Ignore,
            };
        }
    }
    if is_request && serde_json::from_value::<ClientJsonRpcMessage>(value.clone()).is_err() {
        let m = method.and_then(Value::as_str).unwrap_or_default();
        return Verdict::Answer(error(
            reply_id,
            INVALID_PARAMS,
            format!("Invalid params: the params of `{m}` are not what it takes (see the MCP specification for `{m}`)."),
        ));
    }
    Verdict::Forward
}

/// Why `params` of a `tools/call` are not `{name: string, arguments?: object}`.
fn tool_call_params_problem(params: Option<&Value>) -> Option<String> {
    let shape = "Send params as {\"name\": <tool name>, \"arguments\": {…}}.";
    let Some(Value::Object(p)) = params else {
        return Some(format!(
            "Invalid params: tools/call needs params as an object. {shape}"
        ));
    };
    if !p.get("name").is_some_and(Value::is_string) {
        return Some(format!(
            "Invalid params: `name` must be the tool's name, a string. {shape}"
        ));
    }
    match p.get("arguments") {
        None | Some(Value::Null) | Some(Value::Object(_)) => None,
        Some(_) => Some(format!(
            "Invalid params: `arguments` must be an object. {shape}"
        )),
    }
}

/// A JSON-RPC error response.
pub fn error(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn oversized(len: usize) -> Value {
    error(
        Value::Null,
        INVALID_REQUEST,
        format!(
            "Invalid Request: the message is {len} bytes, over the {MAX_LINE}-byte limit, and was not read. Send smaller calls (split a large edit into several)."
        ),
    )
}

/// Reads the client's lines from `input`: forwards the valid ones to `to_rmcp` and
/// sends answers for the others to `answers`. Returns at the end of input (dropping
/// `to_rmcp`, which ends rmcp's session).
pub async fn gate<R, W>(input: R, mut to_rmcp: W, answers: mpsc::UnboundedSender<Value>)
where
    R: tokio::io::AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::with_capacity(1 << 16, input);
    while let Ok(Some(line)) = read_line(&mut input).await {
        let verdict = match &line {
            Line::Oversized(len) => Verdict::Answer(oversized(*len)),
            Line::Whole(bytes) => judge(bytes),
        };
        match (verdict, line) {
            (Verdict::Forward, Line::Whole(mut bytes)) => {
                bytes.push(b'\n');
                if to_rmcp.write_all(&bytes).await.is_err() {
                    break;
                }
            }
            (Verdict::Answer(v), _) => {
                let _ = answers.send(v);
            }
            _ => {}
        }
    }
    let _ = to_rmcp.shutdown().await;
}

/// Writes rmcp's output lines and the gate's answers to `out`, each line whole, until
/// both are done.
pub async fn write_out<R, W>(from_rmcp: R, mut answers: mpsc::UnboundedReceiver<Value>, mut out: W)
where
    R: tokio::io::AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut from_rmcp = BufReader::new(from_rmcp);
    let (mut rmcp_open, mut answers_open) = (true, true);
    let mut buf = Vec::new();
    while rmcp_open || answers_open {
        tokio::select! {
            read = from_rmcp.read_until(b'\n', &mut buf), if rmcp_open => {
                match read {
                    Ok(0) | Err(_) => rmcp_open = false,
                    Ok(_) => {
                        if out.write_all(&buf).await.is_err() {
                            return;
                        }
                        buf.clear();
                    }
                }
            }
            answer = answers.recv(), if answers_open => match answer {
                None => answers_open = false,
                Some(v) => {
                    let mut line = serde_json::to_vec(&v).unwrap_or_default();
                    line.push(b'\n');
                    if out.write_all(&line).await.is_err() {
                        return;
                    }
                }
            },
        }
        let _ = out.flush().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(v: &Verdict) -> Option<i64> {
        match v {
            Verdict::Answer(a) => a["error"]["code"].as_i64(),
            _ => None,
        }
    }

    #[test]
    fn every_malformed_line_gets_its_error_code() {
        let cases: &[(&[u8], Option<i64>)] = &[
            (b"garbage", Some(PARSE_ERROR)),
            (br#"{"jsonrpc":"2.0","id":1,"method":"tools/li"#, Some(PARSE_ERROR)),
            (b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", Some(PARSE_ERROR)),
            (br#"{"jsonrpc":"2.0","id":NaN,"method":"ping"}"#, Some(PARSE_ERROR)),
            (br#"{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}"#, Some(PARSE_ERROR)),
            (b"[]", Some(INVALID_REQUEST)),
            (b"42", Some(INVALID_REQUEST)),
            (br#"{"id":1,"method":"ping"}"#, Some(INVALID_REQUEST)),
            (br#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, Some(INVALID_REQUEST)),
            (br#"{"jsonrpc":"2.0","id":1,"method":7}"#, Some(INVALID_REQUEST)),
            (br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#, Some(INVALID_PARAMS)),
            (br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":[1]}}"#, Some(INVALID_PARAMS)),
            (br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#, Some(INVALID_PARAMS)),
            (br#"{"jsonrpc":"2.0","method":"tools/call"}"#, None),
            (br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, None),
            (br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}"#, None),
            (b"   ", None),
        ];
        for (line, want) in cases {
            let v = judge(line);
            assert_eq!(code(&v), *want, "{}: {v:?}", String::from_utf8_lossy(line));
        }
        assert_eq!(
            judge(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Verdict::Forward
        );
        assert_eq!(judge(b""), Verdict::Ignore);
    }

    #[tokio::test]
    async fn lines_over_the_limit_are_skipped_whole_and_reported() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nnext\n");
        let mut reader = BufReader::with_capacity(4096, input.as_slice());
        match read_line(&mut reader).await.unwrap() {
            Some(Line::Oversized(n)) => assert_eq!(n, MAX_LINE + 10),
            _ => panic!("expected an oversized line"),
        }
        match read_line(&mut reader).await.unwrap() {
            Some(Line::Whole(l)) => assert_eq!(l, b"next"),
            _ => panic!("expected the next line"),
        }
        assert!(read_line(&mut reader).await.unwrap().is_none());
    }
}
