//! A line-by-line comparison of two texts, for showing how an object
//! changed in one step.

/// What happened to a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineTag {
    /// In both texts.
    Same,
    /// Only in the new text.
    Added,
    /// Only in the old text.
    Removed,
}

impl LineTag {
    /// The mark shown before the line.
    pub fn mark(self) -> char {
        match self {
            LineTag::Same => ' ',
            LineTag::Added => '+',
            LineTag::Removed => '-',
        }
    }

    /// What a screen reader says before the line.
    pub fn spoken(self) -> &'static str {
        match self {
            LineTag::Same => "",
            LineTag::Added => "added: ",
            LineTag::Removed => "removed: ",
        }
    }

    /// The CSS class.
    pub fn class(self) -> &'static str {
        match self {
            LineTag::Same => "diff-same",
            LineTag::Added => "diff-add",
            LineTag::Removed => "diff-del",
        }
    }
}

/// Most line pairs compared (a longest common subsequence table); larger
/// texts are listed as they are.
const MAX_CELLS: usize = 4_000_000;

/// Each line of `after` tagged as kept or added, and the removed lines of
/// `before` where they were.
pub fn line_diff(before: &str, after: &str) -> Vec<(LineTag, String)> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    if a.len().saturating_mul(b.len()) > MAX_CELLS {
        return b.iter().map(|l| (LineTag::Same, (*l).to_owned())).collect();
    }
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push((LineTag::Same, a[i].to_owned()));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push((LineTag::Added, b[j].to_owned()));
            j += 1;
        } else {
            out.push((LineTag::Removed, a[i].to_owned()));
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_added_and_removed() {
        let diff = line_diff("a: 1\nb: 2\n", "a: 1\nb: 3\nc: 4\n");
        assert_eq!(
            diff,
            [
                (LineTag::Same, "a: 1".to_owned()),
                (LineTag::Added, "b: 3".to_owned()),
                (LineTag::Added, "c: 4".to_owned()),
                (LineTag::Removed, "b: 2".to_owned()),
            ]
        );
        assert_eq!(line_diff("x\n", "x\n"), [(LineTag::Same, "x".to_owned())]);
    }
}
