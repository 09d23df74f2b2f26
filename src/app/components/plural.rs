//! Counts as words: "1 conflict", "2 conflicts", "100,000 VMIs".

use crate::app::paste_guard::thousands;

/// `n` and the noun, singular for one, plural otherwise, the number with
/// thousands separators.
///
/// ```ignore
/// assert_eq!(counted(1, "conflict", "conflicts"), "1 conflict");
/// assert_eq!(counted(2_990, "VMI", "VMIs"), "2,990 VMIs");
/// ```
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_everything_else_plural() {
        assert_eq!(counted(0, "conflict", "conflicts"), "0 conflicts");
        assert_eq!(counted(1, "conflict", "conflicts"), "1 conflict");
        assert_eq!(counted(2, "conflict", "conflicts"), "2 conflicts");
        assert_eq!(counted(2_990, "VMI", "VMIs"), "2,990 VMIs");
        assert_eq!(counted(100_000, "VMI", "VMIs"), "100,000 VMIs");
    }
}
