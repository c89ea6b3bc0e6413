//! The open games of the web front end, one type for both kinds
//! ([`OpenGame`]: what a game was opened with, and the history of its kind
//! in [`Play`]): a bounded map from id to game, where games no person acted on for too long expire
//! (an open event stream is no action); each change
//! is counted (a change computed off the lock is refused when another came
//! first, and the search of a computer player computing one is told to
//! stop) and announced to the pages' event streams. Each game keeps the
//! state of its current version once computed (every page and request of
//! that version gets it without replaying the game) and which version a
//! computer player is searching (one search per game, however many pages
//! watch it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use crate::agents::Strength;
use crate::board::{Move, Position, Tables};
use crate::race::game::RaceGame;
use crate::race::Choice;

/// The most games open at once.
pub const MAX_GAMES: usize = 64;
/// How long a game may stay untouched before it is dropped, unless the
/// store is made with another time ([`Store::with_idle`]).
pub const IDLE: Duration = Duration::from_secs(30 * 60);

/// The work done for the games of a store, counted (tests count work
/// instead of timing it): each game of the store shares it.
#[derive(Debug, Default)]
pub struct Work {
    /// Sessions built by replaying a board game's moves (each generates the
    /// moves of every position played).
    pub sessions: AtomicU64,
    /// Computer searches started (one per move, however many pages watch
    /// the game).
    pub searches: AtomicU64,
}

impl Work {
    /// The sessions built so far.
    pub fn sessions(&self) -> u64 {
        self.sessions.load(Ordering::Relaxed)
    }

    /// The computer searches started so far.
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }
}

/// What a game was opened with, whatever its kind: its name, options,
/// players, seed and strength, and where its work is counted.
#[derive(Clone)]
pub struct Setup {
    /// The name it was opened by (bundled name or file of the folder).
    pub name: String,
    /// Its options, `NAME=VALUE`.
    pub options: Vec<String>,
    /// The agent of each side or seat (`human` for a person); a race game
    /// has as many as players.
    pub agents: Vec<String>,
    /// The seed of the computer players (and of a race game's dice).
    pub seed: u64,
    /// How hard the computer players think.
    pub strength: Strength,
    /// Where the work done for the game is counted (the store's, once it
    /// is stored).
    pub work: Arc<Work>,
}

/// A game in progress, as stored between requests: what it was opened with
/// and what was played, enough to build its session again (see
/// [`super::kind::Kind`]).
#[derive(Clone)]
pub struct OpenGame {
    /// What it was opened with.
    pub setup: Setup,
    /// The game of its kind and what was played in it.
    pub play: Play,
}

/// The compiled game and what was played in it, of each kind.
#[derive(Clone)]
pub enum Play {
    /// A board game.
    Board(BoardPlay),
    /// A race game.
    Race(RacePlay),
}

/// A board game and its moves: enough to build its
/// [`crate::session::BoardSession`] again.
#[derive(Clone)]
pub struct BoardPlay {
    /// The compiled game.
    pub tables: Arc<Tables>,
    /// The starting position.
    pub start: Position,
    /// The moves played.
    pub played: Vec<Move>,
    /// The moves taken back, the next to redo last.
    pub undone: Vec<Move>,
    /// The side that resigned, if one did.
    pub resigned: Option<usize>,
    /// The rule events of the last move.
    pub events: Vec<String>,
}

impl BoardPlay {
    /// A board game with nothing played.
    pub fn new(tables: Arc<Tables>, start: Position) -> BoardPlay {
        BoardPlay {
            tables,
            start,
            played: Vec::new(),
            undone: Vec::new(),
            resigned: None,
            events: Vec::new(),
        }
    }
}

/// A race game and its turns: enough to build its
/// [`crate::session::RaceSession`] again (the same seed gives the same
/// dice, so the turns replay exactly).
#[derive(Clone)]
pub struct RacePlay {
    /// The compiled game.
    pub game: Arc<RaceGame>,
    /// The choice of each turn played, in order.
    pub choices: Vec<Choice>,
    /// Whether the seat to roll has rolled (its choices are wanted).
    pub rolled: bool,
    /// The choices of people taken back, the next to redo last.
    pub undone: Vec<Choice>,
}

impl RacePlay {
    /// A race game with nothing played.
    pub fn new(game: Arc<RaceGame>) -> RacePlay {
        RacePlay {
            game,
            choices: Vec::new(),
            rolled: false,
            undone: Vec::new(),
        }
    }
}

/// A race turn as the page shows it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TurnLog {
    /// Its number, from 1.
    pub number: u32,
    /// The seat that played it.
    pub seat: usize,
    /// Its name.
    pub player: String,
    /// The dice.
    pub dice: Vec<u8>,
    /// What each die is worth, with a table of values for the dice (`dice
    /// 2 d6: ..., 6 = 10`); left out without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worth: Option<Vec<u16>>,
    /// The choice, in words.
    pub choice: String,
    /// The roll left this choice only (a pass included).
    pub forced: bool,
    /// The rule events, in words (missed turns and extra rolls among them).
    pub events: Vec<String>,
    /// The turns missed and the extra rolls of this turn, in words, to
    /// show apart (`blue misses a turn, 1 more to miss`, `red rolls again`).
    pub notes: Vec<String>,
}

/// A stored game with its bookkeeping.
struct Slot {
    game: OpenGame,
    /// Counts changes, so that a change computed off the lock is refused
    /// when another one came first.
    version: u64,
    last_used: Instant,
    /// The stop flags of the changes being computed (a computer player
    /// thinking among them): raised when the game changes or goes, so that
    /// their searches stop at once ([`crate::agents::stop`]).
    working: Vec<Weak<AtomicBool>>,
    /// The state of the game at a version (the current one, or none yet):
    /// computed once, whoever asks.
    view: Option<(u64, Arc<serde_json::Value>)>,
    /// The version whose computer move is being searched: nobody else
    /// starts a search of it.
    searching: Option<u64>,
    /// The version at which the computer player failed.
    failed: Option<u64>,
}

impl Slot {
    /// Stops every change being computed: its result won't be stored.
    fn stop_work(&mut self) {
        for w in self.working.drain(..) {
            if let Some(flag) = w.upgrade() {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// Drops the games idle for `idle` or longer, stopping their work.
fn expire(games: &mut HashMap<u64, Slot>, now: Instant, idle: Duration) {
    games.retain(|_, g| {
        let keep = now.duration_since(g.last_used) < idle;
        if !keep {
            g.stop_work();
        }
        keep
    });
}

/// `30 minutes`, `1 second`: an idle time in words.
fn idle_words(idle: Duration) -> String {
    let secs = idle.as_secs();
    if secs >= 60 && secs.is_multiple_of(60) {
        crate::words::count(secs / 60, "minute")
    } else {
        crate::words::count(secs, "second")
    }
}

/// The open games. Every change is announced on a watch channel, which the
/// pages' event streams wait on.
pub struct Store {
    games: Mutex<HashMap<u64, Slot>>,
    next: Mutex<u64>,
    changed: tokio::sync::watch::Sender<u64>,
    /// How long a game may stay untouched.
    idle: Duration,
    /// The work done for its games, counted.
    work: Arc<Work>,
    /// How long a request's work may take before it answers an error.
    limit: Duration,
}

/// How long the work of a request (a check, a game's state, opening a
/// game) may take before the request answers an error, unless the store is
/// made with another limit ([`Store::with_limit`]). A computer move has
/// its own ([`super::COMPUTER_CAP`]).
pub const REQUEST_LIMIT: Duration = Duration::from_secs(10);

impl Default for Store {
    fn default() -> Store {
        Store::with_idle(IDLE)
    }
}

impl Store {
    /// A store whose games expire after `idle` untouched (the default is
    /// [`IDLE`]).
    pub fn with_idle(idle: Duration) -> Store {
        Store {
            games: Mutex::default(),
            next: Mutex::default(),
            changed: tokio::sync::watch::Sender::new(0),
            idle,
            work: Arc::default(),
            limit: REQUEST_LIMIT,
        }
    }

    /// The same store with another time limit on a request's work (the
    /// default is [`REQUEST_LIMIT`]).
    pub fn with_limit(mut self, limit: Duration) -> Store {
        self.limit = limit;
        self
    }

    /// How long a request's work may take.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// The work done for the store's games, counted (shared: it may be
    /// read after the store is handed to the router).
    pub fn work(&self) -> Arc<Work> {
        Arc::clone(&self.work)
    }

    /// The state of game `id` at `version`, if it was computed.
    pub fn view(&self, id: u64, version: u64) -> Option<Arc<serde_json::Value>> {
        let games = self.games.lock().ok()?;
        match &games.get(&id)?.view {
            Some((v, state)) if *v == version => Some(Arc::clone(state)),
            _ => None,
        }
    }

    /// Keeps the state of game `id` at `version`, if that is still its
    /// version.
    pub fn keep_view(&self, id: u64, version: u64, state: Arc<serde_json::Value>) {
        if let Ok(mut games) = self.games.lock() {
            if let Some(g) = games.get_mut(&id).filter(|g| g.version == version) {
                g.view = Some((version, state));
            }
        }
    }

    /// Claims the search of the computer's move of game `id` at `version`:
    /// true for the first to ask (it searches; counted), false while
    /// another searches it or once the game moved on. Give it back with [`Store::end_search`].
    pub fn claim_search(&self, id: u64, version: u64) -> bool {
        let Ok(mut games) = self.games.lock() else {
            return false;
        };
        let Some(g) = games.get_mut(&id) else {
            return false;
        };
        if g.version != version || g.searching == Some(version) {
            return false;
        }
        g.searching = Some(version);
        self.work.searches.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// The search of game `id` at `version` ended; when it `failed`, the
    /// game's watchers are told (see [`Store::failed`]).
    pub fn end_search(&self, id: u64, version: u64, failed: bool) {
        let Ok(mut games) = self.games.lock() else {
            return;
        };
        let Some(g) = games.get_mut(&id) else {
            return;
        };
        if g.searching == Some(version) {
            g.searching = None;
        }
        if failed && g.version == version {
            g.failed = Some(version);
            drop(games);
            self.changed.send_modify(|n| *n += 1);
        }
    }

    /// The version of game `id` at which the computer player failed.
    pub fn failed(&self, id: u64) -> Option<u64> {
        self.games.lock().ok()?.get(&id)?.failed
    }

    /// Adds a game; its id, or an error when [`MAX_GAMES`] are open and
    /// none has expired.
    pub fn add(&self, mut game: OpenGame) -> Result<u64, String> {
        game.setup.work = Arc::clone(&self.work);
        let mut games = self.games.lock().map_err(|_| "the store is broken")?;
        let now = Instant::now();
        expire(&mut games, now, self.idle);
        if games.len() >= MAX_GAMES {
            return Err(format!(
                "{MAX_GAMES} games are open: wait until one expires (after {} idle)",
                idle_words(self.idle)
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
        games.insert(
            id,
            Slot {
                game,
                version: 0,
                last_used: now,
                working: Vec::new(),
                view: None,
                searching: None,
                failed: None,
            },
        );
        Ok(id)
    }

    /// A copy of a game and its version (touching it), or None when there
    /// is none.
    pub fn get(&self, id: u64) -> Option<(OpenGame, u64)> {
        let mut games = self.games.lock().ok()?;
        let now = Instant::now();
        expire(&mut games, now, self.idle);
        let g = games.get_mut(&id)?;
        g.last_used = now;
        Some((g.game.clone(), g.version))
    }

    /// A copy of a game and its version without touching it: what an open
    /// event stream looks at (a page left open does not keep its game
    /// alive), or None when there is none.
    pub fn peek(&self, id: u64) -> Option<(OpenGame, u64)> {
        let mut games = self.games.lock().ok()?;
        expire(&mut games, Instant::now(), self.idle);
        let g = games.get(&id)?;
        Some((g.game.clone(), g.version))
    }

    /// Counts a person's action on a game (a request that reads or changes
    /// it): its idle time starts again. Whether there is such a game.
    pub fn touch(&self, id: u64) -> bool {
        let Ok(mut games) = self.games.lock() else {
            return false;
        };
        let now = Instant::now();
        expire(&mut games, now, self.idle);
        match games.get_mut(&id) {
            Some(g) => {
                g.last_used = now;
                true
            }
            None => false,
        }
    }

    /// A copy of a game and its version, to compute a change of, with the
    /// stop flag of that work: raised when the game changes otherwise, is
    /// closed or expires (then the change would be refused anyway). It
    /// does not touch the game: a computer's move played for an open page
    /// is no person's action ([`Store::touch`] counts those).
    pub fn begin(&self, id: u64) -> Option<(OpenGame, u64, Arc<AtomicBool>)> {
        let mut games = self.games.lock().ok()?;
        let now = Instant::now();
        expire(&mut games, now, self.idle);
        let g = games.get_mut(&id)?;
        g.working.retain(|w| w.strong_count() > 0);
        let flag = Arc::new(AtomicBool::new(false));
        g.working.push(Arc::downgrade(&flag));
        Some((g.game.clone(), g.version, flag))
    }

    /// Closes a game: it is dropped and any work on it stops; whether there
    /// was one.
    pub fn remove(&self, id: u64) -> bool {
        let Ok(mut games) = self.games.lock() else {
            return false;
        };
        let Some(mut g) = games.remove(&id) else {
            return false;
        };
        drop(games);
        g.stop_work();
        self.changed.send_modify(|n| *n += 1);
        true
    }

    /// Stores a changed game, unless it was changed by another request
    /// since it was read at `version` (then false). Like [`Store::begin`],
    /// it does not touch the game.
    pub fn put(&self, id: u64, game: OpenGame, version: u64) -> bool {
        self.put_with_view(id, game, version, None)
    }

    /// [`Store::put`], with the state of the changed game when the change
    /// computed it (then nobody computes it again).
    pub fn put_with_view(
        &self,
        id: u64,
        game: OpenGame,
        version: u64,
        view: Option<serde_json::Value>,
    ) -> bool {
        let Ok(mut games) = self.games.lock() else {
            return false;
        };
        let stored = match games.get_mut(&id) {
            Some(old) if old.version == version => {
                old.version += 1;
                old.game = game;
                old.view = view.map(|v| (old.version, Arc::new(v)));
                // Whatever else was being computed is now out of date.
                old.stop_work();
                true
            }
            _ => false,
        };
        drop(games);
        if stored {
            self.changed.send_modify(|n| *n += 1);
        }
        stored
    }

    /// A receiver told of every change to any game.
    pub fn watch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changed.subscribe()
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
