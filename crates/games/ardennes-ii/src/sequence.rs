//! The sequence of play (2.1): the joint pre-turn, the German player turn with the US barrage
//! phase inside it, the US player turn.
//!
//! ```text
//! PRE-TURN (2.2)      weather (from turn 8, until Frozen) · air strike availability ·
//!                     air supply allocation · reinforcement placement ·
//!                     barrage & DG marker removal (both sides)
//! GERMAN PLAYER TURN  barrage marker removal · movement & barrage (+ German half
//!                     reconciliation) · US barrage (+ US half reconciliation) · combat ·
//!                     exploitation (none on turn 1, 4.3) · German supply
//! US PLAYER TURN      barrage marker removal · movement & barrage (+ US half
//!                     reconciliation) · combat · exploitation · US supply
//! END OF GAME TURN    advance the turn marker
//! ```

use serde::{Deserialize, Serialize};

/// The two sides. The Allied player is "the US player" throughout the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    German,
    Allied,
}

impl Side {
    /// The seat that plays this side: the German player is seat 0.
    pub fn seat(self) -> u8 {
        match self {
            Side::German => 0,
            Side::Allied => 1,
        }
    }

    pub fn enemy(self) -> Side {
        match self {
            Side::German => Side::Allied,
            Side::Allied => Side::German,
        }
    }
}

/// One phase of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "phase", content = "side")]
pub enum Phase {
    /// SCS 5.0: before the first turn, the owners place the units a scenario sets up "within N"
    /// of a hex or in an area. Then the first turn begins.
    SetUp,
    /// 2.2: roll for the Freeze (turn 8 on, until Frozen).
    Weather,
    /// 2.2: the US rolls its air strikes for the turn.
    AirStrikes,
    /// 2.2, 3.7: the US may turn air strikes into Air Supply markers.
    AirSupply,
    /// 2.2, SCS 5.0: both sides' reinforcements are placed.
    Reinforcements,
    /// 2.2, 3.4, 3.5: all barrage markers go; DG is removed from qualifying stacks.
    MarkerRemoval,
    /// 2.1: a player turn's barrage marker removal (the enemy's markers, RULINGS A1).
    BarrageRemoval(Side),
    /// 2.1: movement, barrage and overruns of the phasing side; half reconciliation at its end.
    Movement(Side),
    /// 2.1: the US barrage phase inside the German player turn; US half reconciliation.
    UsBarrage,
    /// 3.2: the phasing side attacks.
    Combat(Side),
    /// SCS 11.0 as 1.2 and 3.3 amend it: exploit-capable units move and overrun.
    Exploitation(Side),
    /// 3.7: the phasing side traces supply; units out of supply become DG.
    Supply(Side),
}

impl Phase {
    /// The first phase of a turn.
    pub const FIRST: Phase = Phase::Weather;

    /// The phase after this one on `turn`, or `None` after the last phase of the turn (the
    /// turn marker advances). 4.3: there is no German exploitation phase on turn 1.
    pub fn next(self, turn: u8) -> Option<Phase> {
        use Phase::*;
        use Side::*;
        Some(match self {
            SetUp => Weather,
            Weather => AirStrikes,
            AirStrikes => AirSupply,
            AirSupply => Reinforcements,
            Reinforcements => MarkerRemoval,
            MarkerRemoval => BarrageRemoval(German),
            BarrageRemoval(s) => Movement(s),
            Movement(German) => UsBarrage,
            Movement(Allied) => Combat(Allied),
            UsBarrage => Combat(German),
            Combat(German) if turn == 1 => Supply(German),
            Combat(s) => Exploitation(s),
            Exploitation(s) => Supply(s),
            Supply(German) => BarrageRemoval(Allied),
            Supply(Allied) => return None,
        })
    }

    /// The side whose player turn this phase belongs to (`None` in the pre-turn).
    pub fn phasing(self) -> Option<Side> {
        use Phase::*;
        match self {
            SetUp | Weather | AirStrikes | AirSupply | Reinforcements | MarkerRemoval => None,
            UsBarrage => Some(Side::German),
            BarrageRemoval(s) | Movement(s) | Combat(s) | Exploitation(s) | Supply(s) => Some(s),
        }
    }

    /// The phase a scenario file names (`first_phase`): `weather`, `air-strikes`,
    /// `air-supply`, `reinforcements`, `marker-removal`, and for each side (`german-`, `us-`)
    /// `barrage-removal`, `movement`, `combat`, `exploitation`, `supply`; and `us-barrage`.
    pub fn from_id(id: &str) -> Option<Phase> {
        use Phase::*;
        let sided = |rest: &str, s: Side| match rest {
            "barrage-removal" => Some(BarrageRemoval(s)),
            "movement" => Some(Movement(s)),
            "combat" => Some(Combat(s)),
            "exploitation" => Some(Exploitation(s)),
            "supply" => Some(Supply(s)),
            _ => None,
        };
        match id {
            "weather" => Some(Weather),
            "air-strikes" => Some(AirStrikes),
            "air-supply" => Some(AirSupply),
            "reinforcements" => Some(Reinforcements),
            "marker-removal" => Some(MarkerRemoval),
            "us-barrage" => Some(UsBarrage),
            _ => {
                if let Some(rest) = id.strip_prefix("german-") {
                    sided(rest, Side::German)
                } else if let Some(rest) = id.strip_prefix("us-") {
                    sided(rest, Side::Allied)
                } else {
                    None
                }
            }
        }
    }

    /// The phases of `turn`, in order (2.1).
    pub fn of_turn(turn: u8) -> Vec<Phase> {
        let mut v = vec![Phase::FIRST];
        while let Some(p) = v.last().and_then(|p| p.next(turn)) {
            v.push(p);
        }
        v
    }

    /// The side that fires in this phase, if barrage is allowed in it (3.5, RULINGS A33):
    /// the phasing side in its movement & barrage phase, the US in the US barrage phase.
    pub fn barrage_side(self) -> Option<Side> {
        match self {
            Phase::Movement(s) => Some(s),
            Phase::UsBarrage => Some(Side::Allied),
            _ => None,
        }
    }

    /// The phase's name, as the rulebook's sequence of play gives it.
    pub fn name(self) -> sandtable_core::text::Text {
        use sandtable_core::text::Text;
        let side = |s: Side| match s {
            Side::German => ("German", "德军"),
            Side::Allied => ("US", "美军"),
        };
        let (en, zh) = match self {
            Phase::SetUp => ("Set-up (SCS 5.0)".to_string(), "布设(SCS 5.0)".to_string()),
            Phase::Weather => ("Weather determination (2.2)".to_string(), "天气判定(2.2)".to_string()),
            Phase::AirStrikes => ("Air strike availability (2.2)".into(), "空袭可用性(2.2)".into()),
            Phase::AirSupply => ("Air supply allocation (2.2)".into(), "空中补给分配(2.2)".into()),
            Phase::Reinforcements => ("Reinforcement placement (2.2)".into(), "增援放置(2.2)".into()),
            Phase::MarkerRemoval => (
                "Barrage and DG marker removal (2.2)".into(),
                "射击和 DG 标记移除(2.2)".into(),
            ),
            Phase::BarrageRemoval(s) => (
                format!("{} turn: barrage marker removal (2.1)", side(s).0),
                format!("{}回合:射击标记移除(2.1)", side(s).1),
            ),
            Phase::Movement(s) => (
                format!("{} movement and barrage (2.1)", side(s).0),
                format!("{}移动和射击(2.1)", side(s).1),
            ),
            Phase::UsBarrage => ("US barrage (2.1)".into(), "美军射击(2.1)".into()),
            Phase::Combat(s) => (format!("{} combat (3.2)", side(s).0), format!("{}战斗(3.2)", side(s).1)),
            Phase::Exploitation(s) => (
                format!("{} exploitation (2.1)", side(s).0),
                format!("{}进击(2.1)", side(s).1),
            ),
            Phase::Supply(s) => (format!("{} supply (3.7)", side(s).0), format!("{}补给(3.7)", side(s).1)),
        };
        Text::new(en, zh)
    }
}

/// The date of a turn: turn n is (15 + n) December 1944 (5.11).
pub fn date(turn: u8) -> sandtable_core::text::Text {
    let day = 15 + u32::from(turn);
    sandtable_core::text::Text::new(format!("{day} December 1944"), format!("1944年12月{day}日"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn_phases(turn: u8) -> Vec<Phase> {
        let mut out = vec![Phase::FIRST];
        while let Some(p) = out.last().and_then(|p| p.next(turn)) {
            out.push(p);
        }
        out
    }

    #[test]
    fn the_turn_runs_as_2_1_prints_it() {
        use Phase::*;
        use Side::*;
        assert_eq!(
            turn_phases(2),
            vec![
                Weather,
                AirStrikes,
                AirSupply,
                Reinforcements,
                MarkerRemoval,
                BarrageRemoval(German),
                Movement(German),
                UsBarrage,
                Combat(German),
                Exploitation(German),
                Supply(German),
                BarrageRemoval(Allied),
                Movement(Allied),
                Combat(Allied),
                Exploitation(Allied),
                Supply(Allied),
            ]
        );
    }

    #[test]
    fn no_german_exploitation_on_turn_1_4_3() {
        let one = turn_phases(1);
        assert!(!one.contains(&Phase::Exploitation(Side::German)));
        assert!(one.contains(&Phase::Exploitation(Side::Allied)));
        assert_eq!(one.len(), turn_phases(2).len() - 1);
    }

    #[test]
    fn the_us_fires_in_the_german_turn_and_nobody_fires_in_combat() {
        assert_eq!(Phase::UsBarrage.barrage_side(), Some(Side::Allied));
        assert_eq!(Phase::UsBarrage.phasing(), Some(Side::German));
        assert_eq!(Phase::Movement(Side::German).barrage_side(), Some(Side::German));
        assert_eq!(Phase::Combat(Side::Allied).barrage_side(), None);
        assert_eq!(Phase::Exploitation(Side::Allied).barrage_side(), None);
    }

    #[test]
    fn turn_dates_5_11() {
        assert_eq!(date(1).en, "16 December 1944");
        assert_eq!(date(16).zh, "1944年12月31日");
    }
}
