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

/// Reads a whole number in `range`; the message says what is wrong in words
/// (clap adds the option's name).
pub fn ranged(text: &str, (min, max): (u64, u64)) -> Result<u64, String> {
    let t = text.trim();
    let range = format!("a whole number from {min} to {max}");
    if t.starts_with('-') && t.len() > 1 && t[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("it is below {min}: give {range}"));
    }
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return match t.parse::<u64>() {
            Ok(n) if n < min => Err(format!("it is below {min}: give {range}")),
            Ok(n) if n > max => Err(format!("it is too large: give {range}")),
            Ok(n) => Ok(n),
            Err(_) => Err(format!("it is too large: give {range}")),
        };
    }
    Err(format!("it is not {range}"))
}

fn to<T: TryFrom<u64>>(n: u64) -> Result<T, String> {
    T::try_from(n).map_err(|_| "it is too large for this machine".to_string())
}

/// `--games`.
pub fn games(s: &str) -> Result<usize, String> {
    to(ranged(s, GAMES)?)
}

/// `--jobs`.
pub fn jobs(s: &str) -> Result<usize, String> {
    to(ranged(s, JOBS)?)
}

/// The depth of `perft` and `bench --depth`.
pub fn perft_depth(s: &str) -> Result<usize, String> {
    to(ranged(s, PERFT_DEPTH)?)
}

/// `--max-plies`.
pub fn max_plies(s: &str) -> Result<u32, String> {
    to(ranged(s, MAX_PLIES)?)
}

/// `--think`.
pub fn think_ms(s: &str) -> Result<u64, String> {
    ranged(s, THINK_MS)
}

/// `--playouts`.
pub fn playouts(s: &str) -> Result<u32, String> {
    to(ranged(s, PLAYOUTS)?)
}

/// alphabeta's `--depth`.
pub fn search_depth(s: &str) -> Result<u32, String> {
    to(ranged(s, SEARCH_DEPTH)?)
}

/// `--players`.
pub fn players(s: &str) -> Result<usize, String> {
    to(ranged(s, PLAYERS)?)
}

/// `bench --seconds`: a finite number of seconds in [`SECONDS`] (not
/// `inf`, not `NaN`).
pub fn seconds(s: &str) -> Result<f64, String> {
    let (min, max) = SECONDS;
    let range = format!("a number of seconds from {min} to {max}");
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_nan() => Err(format!("it is not a number: give {range}")),
        Ok(x) if x < min => Err(format!("it is below {min}: give {range}")),
        Ok(x) if x > max => Err(format!("it is too large: give {range}")),
        Ok(x) => Ok(x),
        Err(_) => Err(format!("it is not {range}")),
    }
}

/// `--seed`: any 64-bit number.
pub fn seed(s: &str) -> Result<u64, String> {
    ranged(s, (0, u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_past_them() {
        assert_eq!(ranged("1", (1, 5)), Ok(1));
        assert_eq!(ranged("5", (1, 5)), Ok(5));
        assert!(ranged("0", (1, 5)).is_err_and(|e| e.contains("below 1")));
        assert!(ranged("6", (1, 5)).is_err_and(|e| e.contains("too large")));
        assert!(ranged("99999999999999999999", (1, 5)).is_err_and(|e| e.contains("too large")));
        assert!(ranged("-3", (1, 5)).is_err_and(|e| e.contains("below 1")));
        assert!(ranged("1e3", (1, 5)).is_err_and(|e| e.contains("not a whole number")));
        assert!(ranged("", (1, 5)).is_err());
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert!(seconds("inf").is_err_and(|e| e.contains("too large")));
        assert!(seconds("-inf").is_err_and(|e| e.contains("below")));
        assert!(seconds("NaN").is_err_and(|e| e.contains("not a number")));
        assert!(seconds("1e20").is_err_and(|e| e.contains("too large")));
        assert_eq!(seconds("3600"), Ok(3600.0));
        assert_eq!(seconds("0.01"), Ok(0.01));
        assert!(seconds("0.001").is_err());
    }
}
