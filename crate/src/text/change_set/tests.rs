use super::ChangeSet;
use proptest::prelude::*;

/// Sorted, disjoint char-boundary ranges of `old` with replacement texts, from
/// arbitrary cut points.
fn splices_of(old: &str, cuts: &[(usize, usize, String)]) -> Vec<(std::ops::Range<usize>, String)> {
    let bounds: Vec<usize> = old
        .char_indices()
        .map(|(i, _)| i)
        .chain([old.len()])
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    for (gap, len, text) in cuts {
        let start = (at + gap % 4).min(bounds.len() - 1);
        let end = (start + len % 4).min(bounds.len() - 1);
        out.push((bounds[start]..bounds[end], text.clone()));
        at = end;
    }
    out
}

fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[ab\\né\n]{0,12}").unwrap()
}

fn cuts() -> impl Strategy<Value = Vec<(usize, usize, String)>> {
    proptest::collection::vec((0usize..4, 0usize..4, text()), 0..4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn apply_invert_and_compose_agree_with_splicing(old in text(), c1 in cuts(), c2 in cuts()) {
        let a = ChangeSet::from_splices(&old, splices_of(&old, &c1)).unwrap();
        let mid = a.apply(&old).unwrap();
        prop_assert_eq!(mid.len(), a.new_len());
        prop_assert_eq!(a.invert(&old).apply(&mid).unwrap(), old.clone());
        let b = ChangeSet::from_splices(&mid, splices_of(&mid, &c2)).unwrap();
        let new = b.apply(&mid).unwrap();
        let ab = a.compose(&b).unwrap();
        prop_assert_eq!(ab.apply(&old).unwrap(), new.clone());
        prop_assert_eq!(ChangeSet::between(&old, &new).apply(&old).unwrap(), new.clone());
        let joined = ab.splices().windows(2).all(|w| w[0].0.end < w[1].0.start);
        prop_assert!(joined, "ranges touch or overlap: {:?}", ab.splices());
    }
}

#[test]
fn between_trims_to_the_differing_chars() {
    let c = ChangeSet::between("fn a() {}\n", "fn b() {}\n");
    assert_eq!(c.splices(), &[(3..4, "b".to_string())]);
    let c = ChangeSet::between("aé", "aè");
    assert_eq!(c.splices(), &[(1..3, "è".to_string())]);
    assert!(ChangeSet::between("x", "x").is_empty());
}

#[test]
fn malformed_splices_and_mismatched_compositions_are_refused() {
    assert!(
        ChangeSet::from_splices("abc", vec![(2..3, String::new()), (0..1, String::new())])
            .is_none()
    );
    assert!(ChangeSet::from_splices("é", vec![(1..2, String::new())]).is_none());
    assert!(ChangeSet::from_splices("ab", vec![(1..5, String::new())]).is_none());
    let a = ChangeSet::between("ab", "abc");
    assert!(a.compose(&ChangeSet::identity(2)).is_none());
    assert!(a.apply("a").is_none());
}
