//! "Did you mean": the word among those valid at a point that a misspelt one is nearest, if
//! it is near enough to be what was meant.

/// The candidate nearest `word` by edit distance (a swap of two letters counting once), if it
/// is within a third of the word's length (at least one edit) and not the word itself.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (strsim::damerau_levenshtein(&word.to_lowercase(), &c.to_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c.len()))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn a_swap_or_a_letter_off_is_found_and_a_far_word_is_not() {
        let words = ["players", "pieces", "pass", "promote"];
        assert_eq!(closest("peices", words), Some("pieces"));
        assert_eq!(closest("pices", words), Some("pieces"));
        assert_eq!(closest("Players", words), Some("players"));
        assert_eq!(closest("banana", words), None);
        assert_eq!(closest("pieces", words), None, "the word itself is no suggestion");
    }
}
