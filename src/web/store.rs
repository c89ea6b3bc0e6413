//! The open games of the web front end: a bounded map from id to game,
//! where games idle for too long expire.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::agents::Strength;
use crate::board::{Move, Position, Tables};

/// The most games open at once.
pub const MAX_GAMES: usize = 64;
/// How long a game may stay untouched before it is dropped.
pub const IDLE: Duration = Duration::from_secs(30 * 60);

/// A board game in progress, as stored between requests: enough to build
/// its [`crate::session::BoardSession`] again.
#[derive(Clone)]
pub struct OpenGame {
    /// The compiled game.
    pub tables: Arc<Tables>,
    /// The name it was opened by (bundled name or file of the folder).
    pub name: String,
    /// Its options, `NAME=VALUE`.
    pub options: Vec<String>,
    /// The starting position.
    pub start: Position,
    /// The agent of each side (`human` for a person).
    pub agents: Vec<String>,
    /// The seed of the computer players.
    pub seed: u64,
    /// How hard they think.
    pub strength: Strength,
    /// The moves played.
    pub played: Vec<Move>,
    /// The moves taken back, the next to redo last.
    pub undone: Vec<Move>,
    /// The side that resigned, if one did.
    pub resigned: Option<usize>,
    /// The rule events of the last move.
    pub events: Vec<String>,
    /// Counts changes, so that a change computed off the lock is refused
    /// when another one came first.
    pub version: u64,
    last_used: Instant,
}

impl OpenGame {
    /// A new game with nothing played.
    pub fn new(
        tables: Arc<Tables>,
        name: String,
        options: Vec<String>,
        start: Position,
        agents: Vec<String>,
        seed: u64,
        strength: Strength,
    ) -> OpenGame {
        OpenGame {
            tables,
            name,
            options,
            start,
            agents,
            seed,
            strength,
            played: Vec::new(),
            undone: Vec::new(),
            resigned: None,
            events: Vec::new(),
            version: 0,
            last_used: Instant::now(),
        }
    }
}

/// The open games.
#[derive(Default)]
pub struct Store {
    games: Mutex<HashMap<u64, OpenGame>>,
    next: Mutex<u64>,
}

impl Store {
    /// Adds a game; its id, or an error when [`MAX_GAMES`] are open and
    /// none has expired.
    pub fn add(&self, game: OpenGame) -> Result<u64, String> {
        let mut games = self.games.lock().map_err(|_| "the store is broken")?;
        let now = Instant::now();
        games.retain(|_, g| now.duration_since(g.last_used) < IDLE);
        if games.len() >= MAX_GAMES {
            return Err(format!(
                "{MAX_GAMES} games are open: wait until one expires (after {} minutes idle)",
                IDLE.as_secs() / 60
            ));
        }
        let mut next = self.next.lock().map_err(|_| "the store is broken")?;
        *next += 1;
        // Ids are not guessable in order: mixed with the clock.
        let id = next.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(now.elapsed().subsec_nanos())
            ^ std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
        let id = id & 0x001F_FFFF_FFFF_FFFF; // exact in a JavaScript number
        games.insert(id, game);
        Ok(id)
    }

    /// A copy of a game (touching it), or None when there is none.
    pub fn get(&self, id: u64) -> Option<OpenGame> {
        let mut games = self.games.lock().ok()?;
        let now = Instant::now();
        games.retain(|_, g| now.duration_since(g.last_used) < IDLE);
        let g = games.get_mut(&id)?;
        g.last_used = now;
        Some(g.clone())
    }

    /// Stores a changed game, unless it was changed by another request
    /// since it was read (then false).
    pub fn put(&self, id: u64, mut game: OpenGame) -> bool {
        let Ok(mut games) = self.games.lock() else {
            return false;
        };
        match games.get_mut(&id) {
            Some(old) if old.version == game.version => {
                game.version += 1;
                game.last_used = Instant::now();
                *old = game;
                true
            }
            _ => false,
        }
    }

    /// The number of open games.
    pub fn len(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }

    /// Whether no game is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
