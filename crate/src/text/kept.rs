//! What texts computed about the strings a session meets again, kept across calls.
//!
//! A host that keeps its buffers (editors, the servers' read caches) hands the engine
//! the same `Arc<String>` call after call; each call's [`Text`] of it would build the
//! line index, the line hashes and the line map again (a pass over the whole string:
//! about a fifth of a diagnosed miss on 100 000 lines). [`Kept`] hands each call's text
//! of a string what earlier texts of that string computed ([`Shared`]).
//!
//! Invariants:
//! - **Found by identity, never by address alone.** An entry holds a strong `Arc` of its
//!   string, so the allocation it names stays alive and unchanged (an `Arc<String>`
//!   is immutable while shared, and the entry's clone shares it): a string at the same
//!   address with the same length is that string. A string the session no longer holds
//!   gets no entry reused for it: its allocation is not freed while an entry holds it.
//! - **Bounded.** At most [`KEPT`] strings, the least recently met dropped first.
//! - What is shared is a function of the bytes alone (line starts, hashes, the map),
//!   so sharing it changes no result, only when it is computed.

use super::{Shared, Text};
use std::sync::{Arc, Mutex};

/// The strings kept at once: the files a call or two touch (a host's open buffers
/// beyond them are computed again when met).
pub const KEPT: usize = 4;

/// The shared computations of the last [`KEPT`] strings met, most recent last.
#[derive(Debug, Default)]
pub struct Kept {
    entries: Mutex<Vec<(Arc<String>, Arc<Shared>)>>,
}

impl Kept {
    /// A text of `src` with what earlier texts of the same string computed; `src` is
    /// kept (the least recently met string dropped beyond [`KEPT`]).
    pub fn text<'s>(&self, src: &'s Arc<String>) -> Text<'s> {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let (shared, met_again) = match entries.iter().position(|(s, _)| Arc::ptr_eq(s, src)) {
            Some(i) => {
                let entry = entries.remove(i);
                let shared = Arc::clone(&entry.1);
                entries.push(entry);
                (shared, true)
            }
            None => {
                let shared = Arc::new(Shared::default());
                entries.push((Arc::clone(src), Arc::clone(&shared)));
                if entries.len() > KEPT {
                    entries.remove(0);
                }
                (shared, false)
            }
        };
        Text::with_shared(src, shared, met_again)
    }

    /// A text of `src` sharing what was computed for it, when `src` is kept and its line
    /// index is built; None otherwise. Nothing is added and no entry moves.
    pub fn indexed<'s>(&self, src: &'s Arc<String>) -> Option<Text<'s>> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let (_, shared) = entries.iter().find(|(s, _)| Arc::ptr_eq(s, src))?;
        shared.index.get()?;
        Some(Text::with_shared(src, Arc::clone(shared), true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept string's second text finds the index, hashes and map the first built;
    /// another string with the same bytes (another allocation) gets its own; the
    /// oldest of more than KEPT strings is dropped.
    #[test]
    fn texts_of_one_string_share_what_they_computed() {
        let kept = Kept::default();
        let a = Arc::new("x = 1\n\ny = 2\nx = 1\n".to_string());
        let first = kept.text(&a);
        assert_eq!(first.line_count(), 4);
        let hashes = first.line_hashes().to_vec();
        let map_lines = first.line_map().lines_with(hashes[0]).to_vec();
        drop(first);
        let second = kept.text(&a);
        assert!(second.shared.index.get().is_some(), "the index is shared");
        assert!(
            second.shared.hashes.get().is_some(),
            "the hashes are shared"
        );
        assert!(second.shared.map.get().is_some(), "the map is shared");
        assert_eq!(second.line_hashes(), &hashes[..]);
        assert_eq!(second.line_map().lines_with(hashes[0]), &map_lines[..]);
        let twin = Arc::new(a.as_str().to_string());
        assert!(
            kept.text(&twin).shared.index.get().is_none(),
            "another allocation"
        );
        for i in 0..KEPT {
            let other = Arc::new(format!("{i}\n"));
            let _ = kept.text(&other).line_count();
        }
        assert!(
            kept.text(&a).shared.index.get().is_none(),
            "dropped as the oldest"
        );
    }

    /// What a text computes is the same shared or not, on texts of every shape (CRLF,
    /// no final newline, a BOM, empty).
    #[test]
    fn a_shared_text_answers_as_a_fresh_one() {
        let kept = Kept::default();
        for src in [
            "",
            "a",
            "a\r\nb\r\n",
            "\u{feff}x\n  y  \nz",
            "\n\n\n",
            "é\n😀 x\r\ny",
        ] {
            let s = Arc::new(src.to_string());
            let _ = kept.text(&s).line_hashes();
            let (shared, fresh) = (kept.text(&s), Text::new(src));
            assert_eq!(shared.line_count(), fresh.line_count(), "{src:?}");
            assert_eq!(shared.line_hashes(), fresh.line_hashes(), "{src:?}");
            for i in 0..fresh.line_count() {
                assert_eq!(shared.line(i), fresh.line(i), "{src:?} line {i}");
                assert_eq!(
                    shared.line_start(i),
                    fresh.line_start(i),
                    "{src:?} line {i}"
                );
            }
            assert_eq!(shared.ending(), fresh.ending(), "{src:?}");
            assert_eq!(
                shared.has_mixed_endings(),
                fresh.has_mixed_endings(),
                "{src:?}"
            );
        }
    }
}
