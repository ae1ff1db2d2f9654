// A table of line ranges read: a one-range list is what some rows mean.
#![allow(clippy::single_range_in_vec_init)]

use super::*;

/// [`merge`] of a call that recorded no ranges: the one range where its texts differ.
fn merged(
    old: &str,
    current: &str,
    edited: &str,
    reads: Option<&[Range<usize>]>,
) -> Result<Merged, Overlap> {
    merge(
        old,
        current,
        (edited, &ChangeSet::between(old, edited)),
        reads,
    )
}

/// A rebase carries the lines the call changed (its recorded ranges), not those a diff
/// of its texts picks: the call deleted the first of two equal lines, the host changed
/// the second since. A diff says the call deleted the second, and refused.
#[test]
fn a_rebase_carries_the_lines_the_call_changed() {
    let (old, current, edited) = ("x\nx\ny\n", "x\nX\ny\n", "x\ny\n");
    let deleted_first = ChangeSet::from_splices(old, vec![(0..2, String::new())]).unwrap();
    let m = merge(old, current, (edited, &deleted_first), Some(&[0..1][..])).unwrap();
    assert_eq!(m.text, "X\ny\n");
    assert_eq!(m.splices, [(0..2, String::new())]);
    assert!(merged(old, current, edited, Some(&[0..1][..])).is_err());
}

/// (old, current, edited, reads, Some(merged) | None for an overlap)
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static [Range<usize>],
    Option<&'static str>,
);

#[test]
fn merges_apply_the_edit_where_nothing_changed_and_refuse_where_it_did() {
    let cases: &[Case] = &[
        // A line added above: the edit moves down with it.
        (
            "a\nb\nc\n",
            "z\na\nb\nc\n",
            "a\nb\nC\n",
            &[],
            Some("z\na\nb\nC\n"),
        ),
        // A line removed above: the edit moves up.
        ("a\nb\nc\n", "b\nc\n", "a\nb\nC\n", &[], Some("b\nC\n")),
        // A change below: the edit stays.
        (
            "a\nb\nc\nd\n",
            "a\nb\nc\nD\n",
            "A\nb\nc\nd\n",
            &[],
            Some("A\nb\nc\nD\n"),
        ),
        // Adjacent changes that share no line merge.
        ("a\nb\n", "a\nB\n", "A\nb\n", &[], Some("A\nB\n")),
        // The edit writes a line that changed since.
        ("a\nb\nc\n", "a\nB\nc\n", "a\nX\nc\n", &[], None),
        // The edit reads a line that changed since (its match), though it writes elsewhere.
        ("a\nb\nc\n", "a\nb\nC\n", "A\nb\nc\n", &[0..3], None),
        // Two insertions at one place: their order is a guess.
        ("a\nb\n", "a\nz\nb\n", "a\ny\nb\n", &[], None),
        // An insertion strictly inside a replaced stretch.
        ("a\nb\nc\n", "a\nX\nY\n", "a\nb\nn\nc\n", &[], None),
        // A line argument inside a changed stretch (read, not written).
        (
            "a\nb\nc\nd\n",
            "a\nB\nc\nd\n",
            "a\nb\nc\nD\n",
            &[1..2],
            None,
        ),
        // A final line without a newline that gains one since.
        ("a\nb", "a\nb\nc", "A\nb", &[], Some("A\nb\nc")),
    ];
    for (old, current, edited, reads, want) in cases {
        let got = merged(old, current, edited, Some(*reads))
            .ok()
            .map(|m| m.text);
        assert_eq!(
            got.as_deref(),
            *want,
            "{old:?} → {current:?}, edit {edited:?}"
        );
    }
}

#[test]
fn a_merge_reports_where_its_first_hunk_went() {
    let m = merged("a\nb\nc\n", "y\nz\na\nb\nc\n", "a\nb\nC\n", Some(&[][..])).unwrap();
    assert_eq!(m.first, Some((2, 4)));
    assert_eq!(m.changed, vec![0..0]);
}

#[test]
fn a_tool_that_notes_no_reads_reads_a_line_around_what_it_writes() {
    // The line above the written one changed since: refused without reads, applied
    // with reads that do not include it.
    let (old, current, edited) = ("a\nb\nc\n", "A\nb\nc\n", "a\nB\nc\n");
    assert!(merged(old, current, edited, None).is_err());
    assert!(merged(old, current, edited, Some(&[1..2][..])).is_ok());
    // Two lines away: applied either way.
    let (old, current, edited) = ("a\nb\nc\nd\n", "A\nb\nc\nd\n", "a\nb\nC\nd\n");
    assert_eq!(
        merged(old, current, edited, None).unwrap().text,
        "A\nb\nC\nd\n"
    );
}

#[test]
fn changed_since_is_cut_to_its_bound() {
    let old = Arc::new((0..1000).map(|i| format!("{i}\n")).collect::<String>());
    let new = Arc::new(
        (0..1000)
            .map(|i| format!("{}\n", i * 7))
            .collect::<String>(),
    );
    let diff = changed_since("a.txt", &old, Some(&new));
    assert!(diff.lines().count() <= MAX_DIFF_LINES + 1);
    assert!(diff.contains("more lines of diff"));
}
