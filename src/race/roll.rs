//! `Roll`: the faces the dice show.

use crate::race::game::MAX_DICE;
use crate::rng::Rng;

/// The faces shown by the dice of one roll, in the order rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Roll {
    faces: [u8; MAX_DICE],
    count: u8,
}

impl Roll {
    /// A roll showing these faces (at most `MAX_DICE`, else `None`).
    pub fn new(faces: &[u8]) -> Option<Roll> {
        if faces.len() > MAX_DICE {
            return None;
        }
        let mut r = Roll {
            faces: [0; MAX_DICE],
            count: faces.len() as u8,
        };
        for (slot, f) in r.faces.iter_mut().zip(faces) {
            *slot = *f;
        }
        Some(r)
    }

    /// A roll of the first `count` of these faces.
    pub fn from_faces(faces: [u8; MAX_DICE], count: usize) -> Roll {
        let count = count.min(MAX_DICE);
        let mut r = Roll {
            faces: [0; MAX_DICE],
            count: count as u8,
        };
        for (slot, f) in r.faces.iter_mut().zip(faces).take(count) {
            *slot = f;
        }
        r
    }

    /// Rolls `dice` dice of `faces` faces, one after the other, each a
    /// uniform draw from the generator (SS-8).
    pub fn random(dice: u8, faces: u8, rng: &mut Rng) -> Roll {
        let mut r = Roll {
            faces: [0; MAX_DICE],
            count: dice.min(MAX_DICE as u8),
        };
        for slot in r.faces.iter_mut().take(usize::from(r.count)) {
            *slot = rng.below(u64::from(faces)) as u8 + 1;
        }
        r
    }

    /// The faces, in the order rolled.
    pub fn faces(&self) -> &[u8] {
        self.faces.get(..usize::from(self.count)).unwrap_or(&[])
    }

    /// The sum of the faces.
    #[inline]
    pub fn sum(&self) -> u16 {
        self.faces().iter().map(|&f| u16::from(f)).sum()
    }

    /// Whether a die shows `face`.
    pub fn shows(&self, face: u8) -> bool {
        self.faces().contains(&face)
    }

    /// Whether two or more dice all show the same face.
    pub fn is_double(&self) -> bool {
        let f = self.faces();
        f.len() >= 2 && f.iter().all(|&x| x == f[0])
    }

    /// The faces sorted, unused slots 0 (to compare with `roll 6 3`).
    pub fn sorted(&self) -> [u8; MAX_DICE] {
        let mut s = self.faces;
        match s {
            // Two dice (the usual case): one compare, no sort.
            [a, b, ..] if self.count == 2 => {
                if a > b {
                    s[0] = b;
                    s[1] = a;
                }
            }
            _ if self.count < 2 => {}
            _ => {
                if let Some(part) = s.get_mut(..usize::from(self.count)) {
                    part.sort_unstable();
                }
            }
        }
        s
    }

    /// Every roll of `dice` dice of `faces` faces, each as likely as the
    /// others (`faces ^ dice` of them), for agents that weigh the chances.
    pub fn all(dice: u8, faces: u8) -> Vec<Roll> {
        let mut out = Vec::new();
        let n = usize::from(dice.min(MAX_DICE as u8));
        let total = (u32::from(faces)).pow(n as u32);
        for i in 0..total {
            let mut r = Roll {
                faces: [0; MAX_DICE],
                count: n as u8,
            };
            let mut x = i;
            for slot in r.faces.iter_mut().take(n) {
                *slot = (x % u32::from(faces)) as u8 + 1;
                x /= u32::from(faces);
            }
            out.push(r);
        }
        out
    }
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
}
