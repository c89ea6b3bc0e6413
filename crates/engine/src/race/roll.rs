//! `Roll`: the faces the dice show (or the sticks of a throw).

use crate::race::game::{MAX_DICE, MAX_STICKS};
use crate::rng::Rng;

/// The faces shown by the dice of one roll (or the sticks of a throw), in
/// the order rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// At most `MAX_DICE` dice or `MAX_STICKS` sticks; unused slots 0.
    faces: [u8; MAX_STICKS],
    count: u8,
    /// The sum of the faces and whether they make a double, worked out once
    /// (every turn asks them several times).
    sum: u16,
    double: bool,
    /// The first faces sorted, unused slots 0 (all 0 beyond `MAX_DICE`
    /// faces: a rule names at most that many).
    sorted: [u8; MAX_DICE],
}

impl Roll {
    /// A roll showing these faces (at most `MAX_STICKS`, else `None`).
    pub fn new(faces: &[u8]) -> Option<Roll> {
        if faces.len() > MAX_STICKS {
            return None;
        }
        let mut r = Roll::blank(faces.len() as u8);
        for (slot, f) in r.faces.iter_mut().zip(faces) {
            *slot = *f;
        }
        Some(r.totalled())
    }

    /// A roll of the first `count` of these faces.
    pub fn from_faces(faces: [u8; MAX_STICKS], count: usize) -> Roll {
        let count = count.min(MAX_STICKS);
        let mut r = Roll::blank(count as u8);
        for (slot, f) in r.faces.iter_mut().zip(faces).take(count) {
            *slot = f;
        }
        r.totalled()
    }

    /// Rolls `dice` dice of `faces` faces, one after the other, each a
    /// uniform draw from the generator (SS-8).
    #[inline]
    pub fn random(dice: u8, faces: u8, rng: &mut Rng) -> Roll {
        let count = dice.min(MAX_DICE as u8);
        // The faces gathered in a register and stored at once: stored one
        // byte at a time, they were read back whole before the bytes had
        // landed (a stall that cost more than the draws).
        let mut packed = 0u64;
        for i in 0..u32::from(count) {
            let face = rng.below(u64::from(faces)) as u8 + 1;
            packed |= u64::from(face) << (8 * i);
        }
        Roll::made(packed.to_le_bytes(), count)
    }

    /// Throws `sticks` two-sided sticks, one after the other, each showing 0
    /// or 1 by a uniform draw from the generator: the throw is their sum.
    pub fn sticks(sticks: u8, rng: &mut Rng) -> Roll {
        let count = sticks.min(MAX_STICKS as u8);
        let mut faces = [0u8; MAX_STICKS];
        for f in faces.iter_mut().take(usize::from(count)) {
            *f = rng.below(2) as u8;
        }
        Roll::made(faces, count)
    }

    /// `count` dice showing nothing yet.
    fn blank(count: u8) -> Roll {
        Roll {
            faces: [0; MAX_STICKS],
            count,
            sum: 0,
            double: false,
            sorted: [0; MAX_DICE],
        }
    }

    /// The roll with its sum, double and sorted faces worked out.
    #[inline]
    fn totalled(self) -> Roll {
        Roll::made(self.faces, self.count)
    }

    /// The roll of these faces (unused slots 0), every field at once.
    #[inline]
    fn made(faces: [u8; MAX_STICKS], count: u8) -> Roll {
        let (sum, double, sorted) = match faces {
            // One or two dice (the usual case) without a loop or a sort;
            // the unused slots are 0.
            [a, b, ..] if count <= 2 => {
                let mut sorted = [0; MAX_DICE];
                if count == 2 {
                    sorted[0] = a.min(b);
                    sorted[1] = a.max(b);
                } else {
                    sorted[0] = a;
                }
                (u16::from(a) + u16::from(b), count == 2 && a == b, sorted)
            }
            _ => {
                let f = faces.get(..usize::from(count)).unwrap_or(&[]);
                (
                    f.iter().map(|&x| u16::from(x)).sum(),
                    f.len() >= 2 && f.iter().all(|&x| Some(&x) == f.first()),
                    sort_many(faces, count),
                )
            }
        };
        Roll {
            faces,
            count,
            sum,
            double,
            sorted,
        }
    }

    /// The faces, in the order rolled.
    pub fn faces(&self) -> &[u8] {
        self.faces.get(..usize::from(self.count)).unwrap_or(&[])
    }

    /// The sum of the faces.
    #[inline]
    pub fn sum(&self) -> u16 {
        self.sum
    }

    /// Whether a die shows `face`.
    #[inline]
    pub fn shows(&self, face: u8) -> bool {
        // The unused slots are 0, which no die shows. (`contains` on
        // bytes is a call to `memchr`; eight comparisons are not.)
        #[allow(clippy::manual_contains)]
        let shown = self.faces.iter().any(|&f| f == face);
        face != 0 && shown
    }

    /// Whether two or more dice all show the same face.
    #[inline]
    pub fn is_double(&self) -> bool {
        self.double
    }

    /// The faces sorted, unused slots 0 (to compare with `roll 6 3`; all 0
    /// beyond `MAX_DICE` faces).
    #[inline]
    pub fn sorted(&self) -> [u8; MAX_DICE] {
        self.sorted
    }

    /// Every roll of `dice` dice of `faces` faces, each as likely as the
    /// others (`faces ^ dice` of them), for agents that weigh the chances.
    pub fn all(dice: u8, faces: u8) -> Vec<Roll> {
        let mut out = Vec::new();
        let n = usize::from(dice.min(MAX_STICKS as u8));
        let total = (u32::from(faces)).pow(n as u32);
        for i in 0..total {
            let mut r = Roll::blank(n as u8);
            let mut x = i;
            for slot in r.faces.iter_mut().take(n) {
                *slot = (x % u32::from(faces)) as u8 + 1;
                x /= u32::from(faces);
            }
            out.push(r.totalled());
        }
        out
    }
}

/// The faces and their number, as before the sum and the double were kept
/// and before a roll held more than `MAX_DICE` faces: the hash of a roll
/// (agents key positions by it) stays what it was; the faces beyond come
/// after, in throws of more sticks only.
impl std::hash::Hash for Roll {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let (dice, more) = self.faces.split_at(MAX_DICE);
        dice.hash(state);
        self.count.hash(state);
        if usize::from(self.count) > MAX_DICE {
            more.hash(state);
        }
    }
}

/// The first `count` faces sorted (three dice or more), out of the way of
/// the usual two; all 0 beyond `MAX_DICE` faces (a rule names at most that
/// many).
#[inline(never)]
fn sort_many(faces: [u8; MAX_STICKS], count: u8) -> [u8; MAX_DICE] {
    let mut s = [0u8; MAX_DICE];
    if usize::from(count) > MAX_DICE {
        return s;
    }
    for (slot, f) in s.iter_mut().zip(faces) {
        *slot = f;
    }
    if let Some(part) = s.get_mut(..usize::from(count)) {
        part.sort_unstable();
    }
    s
}

impl std::fmt::Display for Roll {
    /// `6+3`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.faces().iter().map(u8::to_string).collect();
        f.write_str(&parts.join("+"))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn faces_and_sums() {
        let r = Roll::new(&[6, 3]).unwrap();
        assert_eq!(r.sum(), 9);
        assert!(r.shows(6) && !r.shows(5));
        assert!(!r.is_double());
        assert!(Roll::new(&[4, 4]).unwrap().is_double());
        assert!(!Roll::new(&[4]).unwrap().is_double());
        assert_eq!(r.sorted(), [3, 6, 0, 0]);
        assert_eq!(Roll::new(&[3, 6]).unwrap().sorted(), [3, 6, 0, 0]);
        assert_eq!(Roll::new(&[5, 1, 3]).unwrap().sorted(), [1, 3, 5, 0]);
        assert_eq!(Roll::new(&[4]).unwrap().sorted(), [4, 0, 0, 0]);
        assert_eq!(r.to_string(), "6+3");
        assert_eq!(Roll::all(2, 6).len(), 36);
    }

    #[test]
    fn throws_of_more_sticks_than_dice() {
        let seven = Roll::new(&[1, 0, 1, 1, 0, 1, 1]).unwrap();
        assert_eq!(seven.faces(), &[1, 0, 1, 1, 0, 1, 1]);
        assert_eq!(seven.sum(), 5);
        assert!(!seven.is_double());
        assert_eq!(seven.sorted(), [0, 0, 0, 0]);
        assert_eq!(seven.to_string(), "1+0+1+1+0+1+1");
        assert!(Roll::new(&[1; MAX_STICKS]).unwrap().is_double());
        assert!(Roll::new(&[0; MAX_STICKS + 1]).is_none());
        let mut rng = Rng::new(7);
        for _ in 0..100 {
            let r = Roll::sticks(7, &mut rng);
            assert_eq!(r.faces().len(), 7);
            assert!(r.faces().iter().all(|&f| f <= 1));
            assert_eq!(
                r.sum(),
                r.faces().iter().map(|&f| u16::from(f)).sum::<u16>()
            );
        }
    }

    #[test]
    fn the_hash_of_dice_is_that_of_four_slots() {
        use std::hash::{Hash, Hasher};
        let hash = |h: &dyn Fn(&mut std::collections::hash_map::DefaultHasher)| {
            let mut s = std::collections::hash_map::DefaultHasher::new();
            h(&mut s);
            s.finish()
        };
        let roll = Roll::new(&[6, 3]).unwrap();
        let before = hash(&|s| {
            [6u8, 3, 0, 0].hash(s);
            2u8.hash(s);
        });
        assert_eq!(hash(&|s| roll.hash(s)), before);
    }
}
