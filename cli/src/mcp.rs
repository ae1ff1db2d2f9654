//! `anchored-edit mcp`: every tool over the Model Context Protocol on stdio (rmcp).
//!
//! The server is a thin adapter: tool names, descriptions and schemas come from the
//! engine's `profile_schemas()` (the `--profile` / `--tools` selection; calls take every
//! tool whatever is listed), each `tools/call` runs through the same path as
//! `anchored-edit call` (engine, then an all-or-nothing write), and one `Session` lives
//! for the whole connection so statistics and repeated-failure advice carry across
//! calls. A refused edit is a normal tool result with `isError: true`: its message as
//! the first text block, the whole result JSON as the second and as structured content.

use crate::disk::DiskFiles;
use crate::host;
use crate::mcp_gate;
use anchored_edit::Session;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

struct State {
    session: Session,
    disk: DiskFiles,
    stats: Option<PathBuf>,
}

#[derive(Clone)]
pub struct EngineServer {
    state: Arc<Mutex<State>>,
    tools: Arc<Vec<Tool>>,
}

impl EngineServer {
    /// `session`: set up by the caller (roots, replayed `--stats` history).
    /// `schemas`: the tool list to publish (`anchored_edit::profile_schemas`).
    pub fn new(
        disk: DiskFiles,
        stats: Option<PathBuf>,
        session: Session,
        schemas: &Value,
    ) -> EngineServer {
        let mut session = session;
        // The new texts come apart from the result, shared: written, then kept for the
        // next call (host.rs, read_cache.rs).
        session.hand_texts(true);
        EngineServer {
            state: Arc::new(Mutex::new(State {
                session,
                disk,
                stats,
            })),
            tools: Arc::new(tools(schemas)),
        }
    }

    fn run(&self, name: &str, arguments: Option<JsonObject>) -> CallToolResult {
        crate::step_times::begin();
        let request = json!({
            "tool": name,
            "arguments": arguments.map(Value::Object).unwrap_or_else(|| json!({})),
        });
        let mut state = match self.state.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        let State {
            session,
            disk,
            stats,
        } = &mut *state;
        let result = host::execute(
            session,
            disk,
            &request,
            &anchored_edit::CallOptions::default(),
        );
        if let Some(path) = stats.as_ref() {
            // Statistics are best effort; a failed write must not fail the edit.
            let _ = crate::persist_stats(path, session);
        }
        let body = result.to_llm_json();
        let text = serde_json::to_string_pretty(&body).unwrap_or_default();
        let content = vec![
            ContentBlock::text(result.headline().to_string()),
            ContentBlock::text(text),
        ];
        let mut out = if result.ok {
            CallToolResult::success(content)
        } else {
            CallToolResult::error(content)
        };
        out.structured_content = Some(body);
        crate::step_times::mark("reply");
        crate::step_times::end();
        out
    }
}

fn tools(schemas: &Value) -> Vec<Tool> {
    schemas
        .as_array()
        .map(|list| {
            list.iter()
                .map(|t| {
                    let name = t["name"].as_str().unwrap_or_default().to_string();
                    let description = t["description"].as_str().unwrap_or_default().to_string();
                    let schema: JsonObject =
                        t["inputSchema"].as_object().cloned().unwrap_or_default();
                    let tool = Tool::new(name, description, Arc::new(schema));
                    // The engine declares each tool's annotations; they are passed on as is.
                    match serde_json::from_value::<ToolAnnotations>(t["annotations"].clone()) {
                        Ok(annotations) => tool.with_annotations(annotations),
                        Err(_) => tool,
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

impl ServerHandler for EngineServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "anchored-edit",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(anchored_edit::SERVER_INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(self.run(&request.name, request.arguments).into())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }
}

/// Serves until the client closes stdin. The client's lines pass through
/// [`crate::mcp_gate`], which answers those rmcp would drop; rmcp's output and the
/// gate's answers share one writer to stdout.
pub fn serve(server: EngineServer) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the MCP runtime: {e}"))?;
    runtime.block_on(async move {
        let (rmcp_side, gate_side) = tokio::io::duplex(1 << 16);
        let (from_rmcp, to_rmcp) = tokio::io::split(gate_side);
        let (answers, answered) = tokio::sync::mpsc::unbounded_channel();
        let gate = tokio::spawn(mcp_gate::gate(tokio::io::stdin(), to_rmcp, answers));
        let writer = tokio::spawn(mcp_gate::write_out(
            from_rmcp,
            answered,
            tokio::io::stdout(),
        ));
        let (read, write) = tokio::io::split(rmcp_side);
        // The gate enforces the line limit (and answers it); rmcp's must not be lower.
        let transport =
            AsyncRwTransport::new(read, write).with_max_line_length(mcp_gate::MAX_LINE + 2);
        let served = async {
            let service = server
                .serve(transport)
                .await
                .map_err(|e| format!("MCP initialisation failed: {e}"))?;
            service
                .waiting()
                .await
                .map_err(|e| format!("MCP server stopped: {e}"))?;
            Ok::<(), String>(())
        }
        .await;
        gate.abort();
        let _ = writer.await;
        served
    })
}
