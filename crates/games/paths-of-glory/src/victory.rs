//! 5.0 Determining victory: the VP spaces of a scenario (5.7.2), the VP a capture moves
//! (supplement 6.6: +1 when the CP takes an Allied VP space, −1 when the Allies take a CP one),
//! automatic victory at segment E.2 (5.2), and the end of a scenario on its levels (5.3–5.7)
//! with the Historical scenario's final adjustments (5.7.4.8, 5.7.4.9) and a tournament bid
//! (5.6).

use crate::data::{Data, Side};
use crate::tables::{Outcome, Tables};
use sandtable_core::graph::Space;

/// Whether a space is a VP space in a scenario: the map flags the Historical scenario's
/// (5.7.2); the others count the five spaces 5.7.2.2 takes away and not the five 5.7.2.3 adds.
pub fn is_vp_space(data: &Data, historical: bool, s: Space) -> bool {
    vp_spaces(data, historical)(s)
}

/// [`is_vp_space`] for one scenario, the map's sets looked up once for many spaces.
pub(crate) fn vp_spaces(data: &Data, historical: bool) -> impl Fn(Space) -> bool + '_ {
    let (added, removed) = if historical {
        (&[][..], &[][..])
    } else {
        (
            data.map.space_set("vp-historical-added"),
            data.map.space_set("vp-historical-removed"),
        )
    };
    move |s| (data.facts(s).vp && !added.contains(&s)) || removed.contains(&s)
}

/// The VP a change of a VP space's control moves (positive: toward the CP), 0 for another
/// space or no change.
pub fn capture(data: &Data, historical: bool, s: Space, from: Option<Side>, to: Option<Side>) -> i32 {
    if from == to || !is_vp_space(data, historical, s) {
        return 0;
    }
    match to {
        Some(Side::Cp) => 1,
        Some(Side::Ap) => -1,
        None => 0,
    }
}

/// 5.2: automatic victory at segment E.2: the CP at 20 or more, the Allies at 0 or less (the
/// tournament bid not counted, 5.6.2.1).
pub fn automatic(tables: &Tables, vp: i32) -> Option<Side> {
    if vp >= tables.victory.cp_automatic {
        Some(Side::Cp)
    } else if vp <= tables.victory.ap_automatic {
        Some(Side::Ap)
    } else {
        None
    }
}

/// What the end of a scenario reads beyond the VP marker.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ending {
    /// The Treaty of Brest-Litovsk was played (5.5.2).
    pub brest_litovsk: bool,
    /// The Historical scenario's adjustments (5.7.4.8, 5.7.4.9) apply: it ended by an
    /// armistice or after turn 20, not by automatic victory.
    pub historical_adjustments: bool,
    /// US army cards (AP #43, #47) whose events were never played (5.7.4.8: +1 VP each).
    pub unplayed_us_army_cards: u8,
    /// The Fall of the Tsar was played (5.7.4.9: −2 VP if not).
    pub tsar_fell: bool,
    /// The VP the Allied player bid in a tournament (5.6.2), added at the end.
    pub bid: i32,
}

/// The final VP total a scenario's levels are read on (5.6.2, 5.7.4.8, 5.7.4.9).
pub fn final_vp(vp: i32, e: &Ending) -> i32 {
    let mut v = vp + e.bid;
    if e.historical_adjustments {
        v += e.unplayed_us_army_cards as i32;
        if !e.tsar_fell {
            v -= 2;
        }
    }
    v
}

/// The result of a scenario that ran to its end (5.3.4, 5.4.2, 5.5.2, 5.7; 5.6.3: in a
/// tournament a draw is an Allied win).
pub fn at_end(tables: &Tables, scenario: &str, vp: i32, e: &Ending, tournament: bool) -> Option<Outcome> {
    let levels = tables.scenario(scenario)?;
    let o = levels.outcome(final_vp(vp, e), e.brest_litovsk);
    Some(match o {
        Outcome::Draw if tournament => Outcome::Win(Side::Ap),
        o => o,
    })
}
