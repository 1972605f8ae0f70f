//! Movement searches kept from one decision to the next.
//!
//! Where a unit can go (9.2, 9.3) depends on its hex and its step, and on where the enemy
//! stands: enemy units and fortresses block (3.1(2)), their zones of control cost MP and
//! stop march formation (3.2, 9.2(2), 9.3(1)), and a fortress hex shields Soviet units from
//! enemy ZOC (14.2(2)). Friendly units moving change none of that (stacking is tested when
//! the moves are listed, not in the search). So in a movement segment each unit is searched
//! once, not once per decision. A unit's searches are kept with exactly what they read, and
//! are used again only where all of it is unchanged.

use crate::data::{Data, Side};
use crate::flow::with_search;
use crate::rules::Board;
use crate::state::{Fortress, Loc, State, UnitId};
use sandtable_core::hex::Hex;
use sandtable_core::search::Search;
use std::cell::RefCell;

/// The hexes one search reached, in the order first reached, with the hex each was reached
/// from.
pub(crate) struct Reach {
    pub hexes: Vec<Hex>,
    parents: Vec<Option<Hex>>,
}

impl Reach {
    fn of(search: &Search) -> Reach {
        let hexes: Vec<Hex> = search.reached().collect();
        let parents = hexes.iter().map(|&h| search.parent(h)).collect();
        Reach { hexes, parents }
    }

    fn parent(&self, h: Hex) -> Option<Option<Hex>> {
        self.hexes.iter().position(|&x| x == h).map(|i| self.parents[i])
    }

    /// The path from the unit's hex to `to`, both included, as [`Search::path`] gives it.
    pub fn path(&self, to: Hex) -> Option<Vec<Hex>> {
        let mut at = self.parent(to)?;
        let mut path = vec![to];
        while let Some(p) = at {
            path.push(p);
            if path.len() > self.hexes.len() {
                break;
            }
            at = self.parent(p).flatten();
        }
        path.reverse();
        Some(path)
    }
}

/// One unit's movement searches from one hex.
pub(crate) struct UnitMoves {
    start: Hex,
    reduced: bool,
    /// Normal movement (9.2).
    pub normal: Reach,
    /// March formation (9.3), if the unit may use it from its hex.
    pub march: Option<Reach>,
    /// The hexes march formation reaches and normal movement does not, in march order.
    pub march_only: Vec<Hex>,
}

impl UnitMoves {
    pub fn start(&self) -> Hex {
        self.start
    }
}

/// What one side's searches read of the enemy: the hexes held by enemy units (in unit order,
/// as the board counts them) and the fortresses; and the searches made under them.
#[derive(Default)]
struct SideMoves {
    enemy: Vec<Hex>,
    fortresses: Vec<Fortress>,
    units: Vec<Option<UnitMoves>>,
}

#[derive(Default)]
struct Memo {
    /// The serial number of the data the searches were made on.
    data: Option<u64>,
    sides: [SideMoves; 2],
    /// Scratch: the side holding each hex, as [`Board::new`] has it; the hexes the enemy holds.
    owner: Vec<Option<Side>>,
    held: Vec<Hex>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

impl Memo {
    /// Makes the kept searches of `side` those of the position `s`: kept if the enemy stands
    /// where it stood, else dropped.
    fn check(&mut self, d: &Data, s: &State, side: Side) {
        if self.data != Some(d.serial) {
            *self = Memo {
                data: Some(d.serial),
                owner: vec![None; d.map.grid.len()],
                ..Memo::default()
            };
        }
        // The owner of every occupied hex, as `Board::new` works it out: the last unit in it,
        // then a fortress for the Soviets.
        for (i, u) in s.units.iter().enumerate() {
            if let Loc::Map(h) = u.loc {
                self.owner[h.idx()] = Some(d.units[i].side);
            }
        }
        for f in &s.fortresses {
            self.owner[f.hex.idx()] = Some(Side::Soviet);
        }
        let enemy = Some(side.enemy());
        self.held.clear();
        let held = (s.units.iter().filter_map(|u| u.hex())).chain(s.fortresses.iter().map(|f| f.hex));
        self.held.extend(held.filter(|h| self.owner[h.idx()] == enemy));
        let m = &mut self.sides[side.seat() as usize];
        if m.enemy != self.held || m.fortresses != s.fortresses {
            std::mem::swap(&mut m.enemy, &mut self.held);
            m.fortresses = s.fortresses.clone();
            m.units.clear();
        }
        m.units.resize_with(d.units.len(), || None);
        for u in &s.units {
            if let Loc::Map(h) = u.loc {
                self.owner[h.idx()] = None;
            }
        }
        for f in &s.fortresses {
            self.owner[f.hex.idx()] = None;
        }
    }
}

/// Calls `f` with the movement searches of each of `units` (all on the map) in the position
/// `s`, made now or kept from before.
pub(crate) fn with_moves(
    d: &Data,
    s: &State,
    units: impl Iterator<Item = UnitId>,
    mut f: impl FnMut(UnitId, &UnitMoves),
) {
    MEMO.with(|memo| {
        let memo = &mut *memo.borrow_mut();
        let mut checked = [false; 2];
        let mut board: Option<Board> = None;
        for u in units {
            let side = d.units[u as usize].side;
            if !checked[side.seat() as usize] {
                memo.check(d, s, side);
                checked[side.seat() as usize] = true;
            }
            let st = &s.units[u as usize];
            let Some(start) = st.hex() else { continue };
            let kept = &mut memo.sides[side.seat() as usize].units[u as usize];
            if !kept
                .as_ref()
                .is_some_and(|m| m.start == start && m.reduced == st.reduced)
            {
                let b = board.get_or_insert_with(|| Board::new(d, s));
                *kept = Some(with_search(|search| search_unit(b, u, search)));
            }
            if let Some(m) = kept {
                f(u, m);
            }
        }
    });
}

/// 9.2, 9.3: both searches of a unit on the map.
fn search_unit(b: &Board, u: UnitId, search: &mut Search) -> UnitMoves {
    let st = &b.s.units[u as usize];
    let march = b.movement(u, true, search).map(|_| Reach::of(search));
    let start = b.movement(u, false, search).expect("the unit is on the map");
    let normal = Reach::of(search);
    // Still in `search`: the normal movement.
    let march_only = march
        .iter()
        .flat_map(|r| r.hexes.iter().copied())
        .filter(|&h| h != start && search.cost(h).is_none())
        .collect();
    UnitMoves {
        start,
        reduced: st.reduced,
        normal,
        march,
        march_only,
    }
}

/// 3.1(1), 14.2(3): whether one more unit may end in a hex it is not already in, as
/// [`Board::has_room`] says, worked out from the units' locations alone.
pub(crate) struct Room<'a> {
    s: &'a State,
    count: Vec<u8>,
}

impl<'a> Room<'a> {
    pub fn new(d: &Data, s: &'a State) -> Room<'a> {
        let mut count = vec![0u8; d.map.grid.len()];
        for u in &s.units {
            if let Loc::Map(h) = u.loc {
                count[h.idx()] = count[h.idx()].saturating_add(1);
            }
        }
        Room { s, count }
    }

    pub fn has_room(&self, h: Hex) -> bool {
        // The board counts the last fortress marker in a hex.
        let fortress = self
            .s
            .fortresses
            .iter()
            .rev()
            .find(|f| f.hex == h)
            .map_or(0, |f| f.level);
        fortress > 0 || (self.count[h.idx()] as usize) < crate::rules::STACK_LIMIT
    }
}
