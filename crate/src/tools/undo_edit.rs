//! `undo_edit`: takes back the session's last applied editing calls.
//!
//! The history of applied calls is the session's (it outlives a call), so this tool only
//! reads its argument and hands the work to the session ([`Outcome::Undo`]), as
//! `get_edit_stats` does with the statistics.

use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::EditResult;

pub static SPEC: ToolSpec = ToolSpec {
    name: "undo_edit",
    description: "Take back the last applied editing call(s) of this session: every file of a \
call at once (a multi-file patch comes back whole, moved files move back, created files are \
removed, deleted files restored). Refused (stale_buffer, with what changed) when a file no \
longer holds what that call wrote. Dry runs and refused calls are not in the history. \
Example: {\"steps\": 1}",
    params: &[
        Param {
            name: "steps",
            aliases: &["count", "n"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description:
                "How many of the last applied calls to take back, newest first (default 1).",
        },
        Param {
            name: "path",
            aliases: &["file_path", "file"],
            ty: ParamType::String,
            required: false,
            description: "Only if the last applied call edited this file (Anthropic's undo_edit names one); refused otherwise, naming the files it edited.",
        },
        super::params::DRY_RUN,
    ],
    annotations: Annotations {
        title: "Undo the last edit",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

typed_args! {
    /// undo_edit's arguments, one field per parameter of [`SPEC`].
    pub struct UndoEditArgs<'a> {
        steps: Option<usize>,
        path: Option<&'a str>,
        dry_run: bool,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let a = UndoEditArgs::from_args(args);
    let path = match a.path {
        Some(raw) => Some(ctx.ws.path(raw)?),
        None => None,
    };
    Ok(Outcome::Undo {
        steps: a.steps.unwrap_or(1),
        path,
    })
}
