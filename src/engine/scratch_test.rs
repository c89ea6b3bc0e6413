#![allow(clippy::unwrap_used)]
use super::*;
use crate::game::*;
use crate::source::Span;

fn brazil(size: u8, home: u8, english: bool) -> Game {
    let mut squares = Vec::new();
    let mut square_at = vec![None; size as usize * size as usize];
    for rank in (0..size).rev() {
        for file in 0..size {
            if (file + rank) % 2 == 0 {
                let id = squares.len() as u16;
                square_at[rank as usize * size as usize + file as usize] = Some(Sq(id));
                squares.push(SquareInfo {
                    file,
                    rank,
                    algebraic: format!("{}{}", (b'a' + file) as char, rank + 1),
                    number: id + 1,
                });
            }
        }
    }
    let dirs = vec![(1, 1), (-1, 1), (1, -1), (-1, -1)];
    let nsq = squares.len();
    let g0 = Game {
        title: "t".into(),
        description: String::new(),
        width: size,
        height: size,
        playable: Playable::Dark,
        notation: Notation::Numeric,
        squares,
        square_at,
        dirs,
        sides: vec![],
        first: SideId(0),
        kinds: vec![],
        zones: vec![],
        setup: vec![],
        capture: CaptureRules {
            compulsory: true,
            choice: if english {
                CaptureChoice::Free
            } else {
                CaptureChoice::Most
            },
            effect: JumpEffect::RemoveAtEnd,
            must_continue: true,
            mid_chain: if english {
                MidChainCrown::Stop
            } else {
                MidChainCrown::Stay
            },
            long_landing: LongLanding::Any,
        },
        triggers: vec![],
        end: EndRules {
            no_pieces_lose: true,
            no_moves: NoMoves::Lose,
            repetition: None,
            counters: vec![],
        },
    };
    let mut g = g0;
    let fw = [vec![DirId(0), DirId(1)], vec![DirId(2), DirId(3)]];
    let all = vec![DirId(0), DirId(1), DirId(2), DirId(3)];
    let mut far = vec![SquareSet::with_capacity(nsq), SquareSet::with_capacity(nsq)];
    for (i, s) in g.squares.iter().enumerate() {
        if s.rank == size - 1 {
            far[0].insert(Sq(i as u16));
        }
        if s.rank == 0 {
            far[1].insert(Sq(i as u16));
        }
        if s.rank < home {
            g.setup.push((Sq(i as u16), SideId(0), KindId(0)));
        }
        if s.rank >= size - home {
            g.setup.push((Sq(i as u16), SideId(1), KindId(0)));
        }
    }
    g.sides = vec![
        SideInfo {
            id: "white".into(),
            name: "White".into(),
            letter: 'W',
            forward: (0, 1),
        },
        SideInfo {
            id: "black".into(),
            name: "Black".into(),
            letter: 'B',
            forward: (0, -1),
        },
    ];
    if english {
        g.first = SideId(1);
    }
    let man_moves: Vec<Moves> = (0..2)
        .map(|s| Moves {
            step: fw[s].clone(),
            slide: vec![],
            short_jump: if english { fw[s].clone() } else { all.clone() },
            long_jump: vec![],
        })
        .collect();
    let king_moves: Vec<Moves> = (0..2)
        .map(|_| {
            if english {
                Moves {
                    step: all.clone(),
                    slide: vec![],
                    short_jump: all.clone(),
                    long_jump: vec![],
                }
            } else {
                Moves {
                    step: vec![],
                    slide: all.clone(),
                    short_jump: vec![],
                    long_jump: all.clone(),
                }
            }
        })
        .collect();
    g.kinds = vec![
        KindInfo {
            id: "man".into(),
            name: "Man".into(),
            letter: 'M',
            moves: man_moves,
            promotion: Some((KindId(1), far)),
            immune_to: 0,
            value: 1,
            span: Span::default(),
        },
        KindInfo {
            id: "king".into(),
            name: "King".into(),
            letter: 'K',
            moves: king_moves,
            promotion: None,
            immune_to: 0,
            value: 3,
            span: Span::default(),
        },
    ];
    g
}

#[test]
fn perft_brazil() {
    let t = Tables::new(brazil(8, 3, false));
    let p = Position::start(&t);
    let mut pf = Perft::new(&t, 8);
    let v: Vec<u64> = (1..=7).map(|d| pf.count(&p, d)).collect();
    assert_eq!(v, vec![7, 49, 302, 1469, 7473, 37628, 187302]);
}
#[test]
fn perft_english() {
    let t = Tables::new(brazil(8, 3, true));
    let p = Position::start(&t);
    let mut pf = Perft::new(&t, 8);
    let v: Vec<u64> = (1..=8).map(|d| pf.count(&p, d)).collect();
    assert_eq!(v, vec![7, 49, 302, 1469, 7361, 36768, 179740, 845931]);
}
#[test]
fn perft_intl() {
    let t = Tables::new(brazil(10, 4, false));
    let p = Position::start(&t);
    let mut pf = Perft::new(&t, 8);
    let v: Vec<u64> = (1..=6).map(|d| pf.count(&p, d)).collect();
    assert_eq!(v, vec![9, 81, 658, 4265, 27117, 167140]);
    let p = Position::parse(
        &t,
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    )
    .unwrap();
    let v: Vec<u64> = (1..=5).map(|d| pf.count(&p, d)).collect();
    eprintln!("random178 {v:?}");
}
#[test]
fn speed() {
    for (name, g, d) in [
        ("brazil", brazil(8, 3, false), 10),
        ("english", brazil(8, 3, true), 10),
        ("intl", brazil(10, 4, false), 8),
    ] {
        let t = Tables::new(g);
        let p = Position::start(&t);
        let mut pf = Perft::new(&t, 12);
        let st = std::time::Instant::now();
        let n = pf.count(&p, d);
        let s = st.elapsed().as_secs_f64();
        eprintln!("{name} d{d} {n} {:.1} M/s", n as f64 / s / 1e6);
    }
}
