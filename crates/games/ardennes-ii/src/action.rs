//! The decisions of Ardennes II, and the faces of its dice: small values with a JSON form that
//! saves, golden traces and the web page share, so a variant's fields keep their names.

use crate::state::UnitId;
use sandtable_core::hex::Hex;
use serde::{Deserialize, Serialize};

/// One decision of a player, or one outcome of chance (a die's face).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum Action {
    /// SCS 6.0 with the TEC: move a unit to a hex it can reach with the MP it has left. With
    /// `via` empty the unit takes the cheapest route; otherwise `via` lists the hexes it enters
    /// on the way, in order (`to` excluded), and the move follows them.
    Move {
        unit: UnitId,
        to: Hex,
        #[serde(default, skip_serializing_if = "Via::is_empty")]
        via: Via,
    },
    /// SCS 6.0, 3.1 (data edition 3): the units of one hex move together, as one stack, to a
    /// hex; each step costs every unit what it costs the unit it costs most, and the stack has
    /// the MP of the unit with the fewest left. With `via` empty the stack takes the cheapest
    /// route; otherwise `via` lists the hexes it enters on the way (`to` excluded).
    MoveStack {
        units: Units,
        to: Hex,
        #[serde(default, skip_serializing_if = "Via::is_empty")]
        via: Via,
    },
    /// 3.5: an artillery unit fires at a hex.
    Fire {
        unit: UnitId,
        target: Hex,
    },
    /// 2.2, 3.5: a US air strike on a hex.
    AirStrike {
        target: Hex,
    },
    /// End the phase (movement, barrage, combat, exploitation, air supply).
    EndPhase,
    /// 3.2 (1): attack this hex.
    Attack {
        target: Hex,
    },
    /// 3.2 (1): this unit joins the attack.
    Join {
        unit: UnitId,
    },
    /// 3.2 (1)–(4): the attack is set; on to the defender's choice and the dice.
    Resolve,
    /// Call off the attack before the defender has chosen.
    CallOff,
    /// 3.2 (2): the defender stands.
    Stand,
    /// 3.2 (2): the defender retreats 5 hexes before combat.
    Withdraw,
    /// 3.2 (5), SCS 8.0: this unit takes a step loss.
    Lose {
        unit: UnitId,
    },
    /// 3.2 (6): the defending stack retreats to this hex.
    RetreatTo {
        to: Hex,
    },
    /// 3.3: these units of one hex overrun the adjacent enemy hex along a road.
    Overrun {
        units: Vec<UnitId>,
        target: Hex,
    },
    /// 7.2, 7.3, 7.5: the unit leaves the map through an exit area or edge.
    Exit {
        unit: UnitId,
    },
    /// 3.6: the artillery bugs out to this hex (and becomes DG).
    BugOut {
        unit: UnitId,
        to: Hex,
    },
    /// 3.6, inventory A17: no hex qualifies; the artillery stays.
    StayPut {
        unit: UnitId,
    },
    /// Place a unit (set-up choice, reinforcement, 5.1 airborne drop) on one of its hexes.
    Place {
        unit: UnitId,
        at: Hex,
    },
    /// 3.8: the US tries to blow the bridges of this demolition symbol.
    Demolish {
        symbol: Hex,
    },
    /// 3.8: no (more) demolitions now.
    Pass,
    /// 4.2: a 2nd Panzer Division mechanized infantry unit crosses the Our in rubber boats,
    /// with all its MP, and loses DG.
    Boats {
        unit: UnitId,
        to: Hex,
    },
    /// 2.2, 3.7: turn one air strike into an Air Supply marker on this hex.
    AirSupply {
        hex: Hex,
    },
    /// 3.7: for DG artillery that cannot trace supply: roll on the Artillery Resupply Table
    /// (`roll`), or leave it DG.
    Resupply {
        unit: UnitId,
        roll: bool,
    },
    /// 3.2 (7): advance after combat.
    Advance {
        unit: UnitId,
        to: Hex,
    },
    EndAdvance,
    /// Chance: the face a die shows (1 to 6).
    Die {
        face: u8,
    },
    /// 3.5: this unit observes the barrage being fired (and may not move for the rest of the
    /// phase).
    Observe {
        unit: UnitId,
    },
    /// 3.8: this US unit makes the demolition attempt (and stops for the rest of the phase).
    Attempt {
        unit: UnitId,
    },
}

/// The units of a stack moving together (SCS 6.0), in the order named: shared by the many
/// moves of one stack a legal list offers, so that each is no copy of it. Its JSON form is
/// the list of the units, as a `Vec` gives it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Units(std::sync::Arc<[UnitId]>);

impl std::ops::Deref for Units {
    type Target = [UnitId];
    fn deref(&self) -> &[UnitId] {
        &self.0
    }
}

impl From<Vec<UnitId>> for Units {
    fn from(units: Vec<UnitId>) -> Units {
        Units(units.into())
    }
}

impl From<&[UnitId]> for Units {
    fn from(units: &[UnitId]) -> Units {
        Units(units.into())
    }
}

impl PartialEq<Vec<UnitId>> for Units {
    fn eq(&self, o: &Vec<UnitId>) -> bool {
        self[..] == o[..]
    }
}

impl std::fmt::Debug for Units {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Units {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Units {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Units, D::Error> {
        Vec::<UnitId>::deserialize(d).map(Units::from)
    }
}

impl Action {
    /// A move along the cheapest route: the shorthand the legal list offers.
    pub fn move_to(unit: UnitId, to: Hex) -> Action {
        Action::Move {
            unit,
            to,
            via: Via::default(),
        }
    }
}

/// The hexes a move enters on the way to its hex (`to` excluded), in order; none for the
/// cheapest route, which every move of a legal list takes. Kept apart, so that the legal
/// list's many moves without one are small. Its JSON form is the list of the hexes, as a `Vec`
/// gives it.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
// One word where the list itself is three, so that a move is four words long.
#[allow(clippy::box_collection)]
pub struct Via(Option<Box<Vec<Hex>>>);

impl Via {
    /// Whether the move takes the cheapest route.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

impl std::ops::Deref for Via {
    type Target = [Hex];
    fn deref(&self) -> &[Hex] {
        self.0.as_deref().map_or(&[], |v| &v[..])
    }
}

impl From<Vec<Hex>> for Via {
    /// An empty list is the cheapest route, the same as none.
    fn from(hexes: Vec<Hex>) -> Via {
        Via((!hexes.is_empty()).then(|| Box::new(hexes)))
    }
}

impl PartialEq<Vec<Hex>> for Via {
    fn eq(&self, o: &Vec<Hex>) -> bool {
        self[..] == o[..]
    }
}

impl std::fmt::Debug for Via {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self[..].fmt(f)
    }
}

impl Serialize for Via {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self[..].serialize(s)
    }
}

impl<'de> Deserialize<'de> for Via {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Via, D::Error> {
        Vec::<Hex>::deserialize(d).map(Via::from)
    }
}

#[cfg(test)]
mod tests {
    use super::{Action, Units};
    use crate::state::UnitId;
    use sandtable_core::hex::Hex;
    use serde::{Deserialize, Serialize};

    /// The moves as their JSON form was first written, with the route as a plain list.
    #[derive(Serialize, Deserialize)]
    #[serde(tag = "do", rename_all = "kebab-case")]
    enum Written {
        Move {
            unit: UnitId,
            to: Hex,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            via: Vec<Hex>,
        },
        MoveStack {
            units: Vec<UnitId>,
            to: Hex,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            via: Vec<Hex>,
        },
    }

    /// A move's route reads and writes the JSON of a plain list, left out when empty: saves,
    /// records and the server's pages read the same text; a list of moves is no larger than
    /// four words a move.
    #[test]
    fn a_routes_json_is_the_lists() {
        for via in [vec![], vec![Hex(7)], vec![Hex(7), Hex(9)]] {
            let pairs = [
                (
                    Action::Move {
                        unit: 3,
                        to: Hex(12),
                        via: via.clone().into(),
                    },
                    Written::Move {
                        unit: 3,
                        to: Hex(12),
                        via: via.clone(),
                    },
                ),
                (
                    Action::MoveStack {
                        units: Units::from(vec![4, 5]),
                        to: Hex(12),
                        via: via.clone().into(),
                    },
                    Written::MoveStack {
                        units: vec![4, 5],
                        to: Hex(12),
                        via: via.clone(),
                    },
                ),
            ];
            for (action, written) in pairs {
                let text = serde_json::to_string(&written).expect("written");
                assert_eq!(serde_json::to_string(&action).expect("written"), text);
                assert_eq!(serde_json::from_str::<Action>(&text).expect("read"), action);
            }
        }
        let explicit = r#"{"do":"move","unit":3,"to":12,"via":[]}"#;
        assert_eq!(
            serde_json::from_str::<Action>(explicit).expect("read"),
            Action::move_to(3, Hex(12))
        );
        assert!(std::mem::size_of::<Action>() <= 32);
    }
}
