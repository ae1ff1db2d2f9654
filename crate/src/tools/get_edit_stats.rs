//! `get_edit_stats`: how this session's calls fared.

use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::EditResult;

pub static SPEC: ToolSpec = ToolSpec {
    name: "get_edit_stats",
    description: "Statistics of this session's calls per tool: applied, refused by error kind, \
how matches were recovered (matched_via), hints used and whether they helped, dry runs \
committed after. Example: {\"reset\": false}",
    params: &[Param {
        name: "reset",
        aliases: &["clear"],
        ty: ParamType::Boolean,
        required: false,
        description: "Start counting afresh after returning the current figures.",
    }],
    annotations: Annotations {
        title: "Edit statistics",
        read_only: true,
        destructive: false,
        idempotent: false,
    },
};

typed_args! {
    /// get_edit_stats' arguments, one field per parameter of [`SPEC`].
    pub struct GetEditStatsArgs<'a> {
        reset: bool,
    }
}

pub fn run(_ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    Ok(Outcome::Stats {
        reset: GetEditStatsArgs::from_args(args).reset,
    })
}
