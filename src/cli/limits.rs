//! The ranges of the command line's numbers (docs/limits.md lists them):
//! clap value parsers that refuse, at parse time and in words, a number
//! outside its range, so that no thread count, allocation or loop is ever
//! sized by an unchecked number.

/// Games of `simulate` and `compare` (at least one: a run of no game says
/// nothing; the lab plays them a block at a time, so memory does not grow
/// with the count).
pub const GAMES: (u64, u64) = (1, 1_000_000_000);
/// Threads of `simulate`, `compare` and `bench --playouts`.
pub const JOBS: (u64, u64) = (1, 256);
/// Depth of `perft` and `bench`.
pub const PERFT_DEPTH: (u64, u64) = (1, 30);
/// Plies after which a game is stopped (`--max-plies`).
pub const MAX_PLIES: (u64, u64) = (1, 10_000_000);
/// Thinking time per move, in milliseconds (`--think`): one hour at most.
pub const THINK_MS: (u64, u64) = (1, 3_600_000);
/// Playouts per move of mcts (`--playouts`).
pub const PLAYOUTS: (u64, u64) = (1, 10_000_000);
/// Search depth of alphabeta (`--depth`).
pub const SEARCH_DEPTH: (u64, u64) = (1, 64);
/// Players of a race game (`--players`); the rule file narrows it further.
pub const PLAYERS: (u64, u64) = (1, 8);
/// Seconds of `bench --seconds`.
pub const SECONDS: (f64, f64) = (0.01, 3600.0);

/// The numbers an option takes, as its message says them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// A whole number from the first to the second.
    Whole(u64, u64),
    /// A number of seconds from the first to the second.
    Seconds(f64, f64),
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Range::Whole(min, max) => write!(f, "a whole number from {min} to {max}"),
            Range::Seconds(min, max) => write!(f, "a number of seconds from {min} to {max}"),
        }
    }
}

/// Why a value parser refused a number; the `Display` says it in words
/// (clap adds the option's name).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LimitError {
    /// Below the range.
    Below(Range),
    /// Above the range.
    TooLarge(Range),
    /// `NaN`.
    NotANumber(Range),
    /// Not a number of the range's kind at all.
    NotOfRange(Range),
    /// In the range, but too large for this machine's integers.
    TooLargeForMachine,
}

impl std::fmt::Display for LimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LimitError::Below(range) => {
                let min: &dyn std::fmt::Display = match range {
                    Range::Whole(min, _) => min,
                    Range::Seconds(min, _) => min,
                };
                write!(f, "it is below {min}: give {range}")
            }
            LimitError::TooLarge(range) => write!(f, "it is too large: give {range}"),
            LimitError::NotANumber(range) => write!(f, "it is not a number: give {range}"),
            LimitError::NotOfRange(range) => write!(f, "it is not {range}"),
            LimitError::TooLargeForMachine => f.write_str("it is too large for this machine"),
        }
    }
}

impl std::error::Error for LimitError {}

/// Reads a whole number in `range`; the error says what is wrong in words
/// (clap adds the option's name).
pub fn ranged(text: &str, (min, max): (u64, u64)) -> Result<u64, LimitError> {
    let t = text.trim();
    let range = Range::Whole(min, max);
    if t.starts_with('-') && t.len() > 1 && t[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(LimitError::Below(range));
    }
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return match t.parse::<u64>() {
            Ok(n) if n < min => Err(LimitError::Below(range)),
            Ok(n) if n > max => Err(LimitError::TooLarge(range)),
            Ok(n) => Ok(n),
            Err(_) => Err(LimitError::TooLarge(range)),
        };
    }
    Err(LimitError::NotOfRange(range))
}

fn to<T: TryFrom<u64>>(n: u64) -> Result<T, LimitError> {
    T::try_from(n).map_err(|_| LimitError::TooLargeForMachine)
}

/// `--games`.
pub fn games(s: &str) -> Result<usize, LimitError> {
    to(ranged(s, GAMES)?)
}

/// `--jobs`.
pub fn jobs(s: &str) -> Result<usize, LimitError> {
    to(ranged(s, JOBS)?)
}

/// The depth of `perft` and `bench --depth`.
pub fn perft_depth(s: &str) -> Result<usize, LimitError> {
    to(ranged(s, PERFT_DEPTH)?)
}

/// `--max-plies`.
pub fn max_plies(s: &str) -> Result<u32, LimitError> {
    to(ranged(s, MAX_PLIES)?)
}

/// `--think`.
pub fn think_ms(s: &str) -> Result<u64, LimitError> {
    ranged(s, THINK_MS)
}

/// `--playouts`.
pub fn playouts(s: &str) -> Result<u32, LimitError> {
    to(ranged(s, PLAYOUTS)?)
}

/// alphabeta's `--depth`.
pub fn search_depth(s: &str) -> Result<u32, LimitError> {
    to(ranged(s, SEARCH_DEPTH)?)
}

/// `--players`.
pub fn players(s: &str) -> Result<usize, LimitError> {
    to(ranged(s, PLAYERS)?)
}

/// `bench --seconds`: a finite number of seconds in [`SECONDS`] (not
/// `inf`, not `NaN`).
pub fn seconds(s: &str) -> Result<f64, LimitError> {
    let (min, max) = SECONDS;
    let range = Range::Seconds(min, max);
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_nan() => Err(LimitError::NotANumber(range)),
        Ok(x) if x < min => Err(LimitError::Below(range)),
        Ok(x) if x > max => Err(LimitError::TooLarge(range)),
        Ok(x) => Ok(x),
        Err(_) => Err(LimitError::NotOfRange(range)),
    }
}

/// `--seed`: any 64-bit number.
pub fn seed(s: &str) -> Result<u64, LimitError> {
    ranged(s, (0, u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_past_them() {
        assert_eq!(ranged("1", (1, 5)), Ok(1));
        assert_eq!(ranged("5", (1, 5)), Ok(5));
        let r = Range::Whole(1, 5);
        assert_eq!(ranged("0", (1, 5)), Err(LimitError::Below(r)));
        assert_eq!(
            LimitError::Below(r).to_string(),
            "it is below 1: give a whole number from 1 to 5"
        );
        assert_eq!(ranged("6", (1, 5)), Err(LimitError::TooLarge(r)));
        assert_eq!(
            ranged("99999999999999999999", (1, 5)),
            Err(LimitError::TooLarge(r))
        );
        assert_eq!(ranged("-3", (1, 5)), Err(LimitError::Below(r)));
        assert_eq!(ranged("1e3", (1, 5)), Err(LimitError::NotOfRange(r)));
        assert_eq!(
            LimitError::NotOfRange(r).to_string(),
            "it is not a whole number from 1 to 5"
        );
        assert!(ranged("", (1, 5)).is_err());
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        let s = Range::Seconds(0.01, 3600.0);
        assert_eq!(seconds("inf"), Err(LimitError::TooLarge(s)));
        assert_eq!(seconds("-inf"), Err(LimitError::Below(s)));
        assert_eq!(
            LimitError::Below(s).to_string(),
            "it is below 0.01: give a number of seconds from 0.01 to 3600"
        );
        assert_eq!(seconds("NaN"), Err(LimitError::NotANumber(s)));
        assert_eq!(seconds("1e20"), Err(LimitError::TooLarge(s)));
        assert_eq!(seconds("3600"), Ok(3600.0));
        assert_eq!(seconds("0.01"), Ok(0.01));
        assert!(seconds("0.001").is_err());
    }
}
