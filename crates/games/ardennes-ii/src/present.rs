//! What players read and see: actions in words and in typeable notation, the view of the
//! state, the situation in a few lines, the board as SVG.

use crate::rules::{with_search, Board, EIGHTHS};
use crate::sequence::Side;
use crate::state::{Stage, UnitId};
use crate::turn::side_name;
use crate::Action;
use crate::ArdennesII;
use sandtable_core::game::{ActionKind, Chart, Seat, Targets};
use sandtable_core::hex::Hex;
use sandtable_core::render::{
    put_pieces, render_hex_base, render_hex_pieces, Counter, HexMark, LineKind, LineStyle, MapStyle, NatoSymbol,
    TagMark, TerrainStyle, TerrainSymbol,
};
use sandtable_core::text::{concat, Lang, Text};
use serde_json::json;

impl ArdennesII {
    /// A hex's printed id (`B1.16`), or its number if it is not on the map.
    fn hid(&self, h: Hex) -> String {
        if h.idx() < self.w.map.grid.len() {
            self.w.data.hex_id(h)
        } else {
            format!("#{}", h.0)
        }
    }

    /// A unit's id in the manifest, or its number if it names none.
    fn uid(&self, u: UnitId) -> String {
        match self.w.data.counters.units.get(u as usize) {
            Some(d) => d.id.clone(),
            None => format!("#{u}"),
        }
    }

    /// A unit in words: its names and its values as printed.
    pub fn unit_text(&self, u: UnitId) -> Text {
        let (Some(def), Some(st)) = (self.w.data.counters.units.get(u as usize), self.s.units.get(u as usize)) else {
            return Text::new(format!("unit #{u}"), format!("单位 #{u}"));
        };
        if !st.dg {
            let (en, zh) = def.label(st.reduced);
            return Text::new(en, zh);
        }
        let v = def.values(st.reduced);
        Text::new(
            concat(&[&def.name_en, " (", &v, " DG)"]),
            concat(&[&def.name_zh, "(", &v, " DG)"]),
        )
    }

    /// The words of an action in one language: a movement phase lists thousands of moves, and
    /// a page shows one language.
    pub(crate) fn words_in(&self, a: &Action, lang: Lang) -> String {
        match a {
            Action::Move { .. } | Action::MoveStack { .. } => self.move_in(a, lang),
            _ => self.describe_action(a).into_lang(lang),
        }
    }

    /// A unit's name with its values in one language (see [`Self::unit_text`]).
    fn unit_in(&self, u: UnitId, lang: Lang) -> std::borrow::Cow<'_, str> {
        match (self.w.data.counters.units.get(u as usize), self.s.units.get(u as usize)) {
            (Some(def), Some(st)) if !st.dg => {
                let (en, zh) = def.label(st.reduced);
                std::borrow::Cow::Borrowed(if lang == Lang::Zh { zh } else { en })
            }
            _ => std::borrow::Cow::Owned(self.unit_text(u).into_lang(lang)),
        }
    }

    /// A move (9.0) in words in one language: the unit or the units moving together, the hex,
    /// and the hexes on the way when a route is chosen.
    fn move_in(&self, a: &Action, lang: Lang) -> String {
        let (who, to, via) = match a {
            Action::Move { unit, to, via } => (self.unit_in(*unit, lang), *to, via),
            Action::MoveStack { units, to, via } => {
                let names: Vec<_> = units.iter().map(|&x| self.unit_in(x, lang)).collect();
                let names: Vec<&str> = names.iter().map(|n| n.as_ref()).collect();
                let sep = if lang == Lang::Zh { "、" } else { ", " };
                (std::borrow::Cow::Owned(names.join(sep)), *to, via)
            }
            _ => return String::new(),
        };
        let together = matches!(a, Action::MoveStack { .. });
        let h = self.hid(to);
        let route = via.iter().map(|&x| self.hid(x)).collect::<Vec<_>>().join(" ");
        match (lang, together, via.is_empty()) {
            (Lang::En, false, true) => concat(&["Move ", &who, " to ", &h]),
            (Lang::En, true, true) => concat(&["Move ", &who, " together to ", &h]),
            (Lang::En, false, false) => concat(&["Move ", &who, " to ", &h, " by ", &route]),
            (Lang::En, true, false) => concat(&["Move ", &who, " together to ", &h, " by ", &route]),
            (Lang::Zh, false, true) => concat(&[&who, "移动到 ", &h]),
            (Lang::Zh, true, true) => concat(&[&who, "一起移动到 ", &h]),
            (Lang::Zh, false, false) => concat(&[&who, "经 ", &route, " 移动到 ", &h]),
            (Lang::Zh, true, false) => concat(&[&who, "一起经 ", &route, " 移动到 ", &h]),
        }
    }

    pub(crate) fn describe_action(&self, a: &Action) -> Text {
        let u = |u: UnitId| self.unit_text(u);
        match *a {
            Action::Move { .. } | Action::MoveStack { .. } => {
                Text::new(self.move_in(a, Lang::En), self.move_in(a, Lang::Zh))
            }
            Action::Fire { unit, target } => {
                let t = u(unit);
                let h = self.hid(target);
                Text::new(format!("{} fires at {h}", t.en), format!("{}射击 {h}", t.zh))
            }
            Action::AirStrike { target } => {
                let h = self.hid(target);
                Text::new(format!("Air strike on {h}"), format!("空袭 {h}"))
            }
            Action::EndPhase => Text::new("End the phase", "结束本阶段"),
            Action::Attack { target } => {
                let h = self.hid(target);
                Text::new(format!("Attack {h}"), format!("攻击 {h}"))
            }
            Action::Join { unit } => {
                let t = u(unit);
                Text::new(format!("{} joins the attack", t.en), format!("{}加入攻击", t.zh))
            }
            Action::Resolve => {
                let odds = self.odds_text();
                Text::new(
                    format!("Attack with these units: {}", odds.en),
                    format!("以这些单位进攻:{}", odds.zh),
                )
            }
            Action::CallOff => Text::new("Call off the attack", "取消这次攻击"),
            Action::Stand => {
                let odds = self.odds_text();
                Text::new(format!("Stand (3.2): {}", odds.en), format!("坚守(3.2):{}", odds.zh))
            }
            Action::Withdraw => Text::new("Retreat 5 hexes before combat (3.2)", "战斗前撤退 5 格(3.2)"),
            Action::Lose { unit } => {
                let t = u(unit);
                Text::new(format!("{} loses a step", t.en), format!("{}损失一个军力", t.zh))
            }
            Action::RetreatTo { to } => {
                let h = self.hid(to);
                let loss = self
                    .combat()
                    .map(|c| self.retreat_options(&Board::new(&self.w, &self.s), c))
                    .is_some_and(|o| o.contains(&(to, true)));
                if loss {
                    Text::new(
                        format!("Retreat to {h}, losing a step (3.2)"),
                        format!("撤退到 {h},损失一个军力(3.2)"),
                    )
                } else {
                    Text::new(format!("Retreat to {h}"), format!("撤退到 {h}"))
                }
            }
            Action::Advance { unit, to } => {
                let t = u(unit);
                let h = self.hid(to);
                Text::new(format!("{} advances to {h}", t.en), format!("{}挺进到 {h}", t.zh))
            }
            Action::EndAdvance => Text::new("No more advances", "结束挺进"),
            Action::Overrun { ref units, target } => {
                let names: Vec<Text> = units.iter().map(|&x| u(x)).collect();
                let en: Vec<&str> = names.iter().map(|t| t.en.as_str()).collect();
                let zh: Vec<&str> = names.iter().map(|t| t.zh.as_str()).collect();
                let h = self.hid(target);
                Text::new(
                    format!("Overrun {h} with {} (+2 MP, 3.3)", en.join(", ")),
                    format!("以{}突袭 {h}(+2 移动力,3.3)", zh.join("、")),
                )
            }
            Action::Exit { unit } => {
                let t = u(unit);
                Text::new(format!("{} leaves the map", t.en), format!("{}离开地图", t.zh))
            }
            Action::Demolish { symbol } => {
                let h = self.hid(symbol);
                Text::new(
                    format!("Try to blow the bridges at {h} (3.8)"),
                    format!("尝试炸毁 {h} 的桥梁(3.8)"),
                )
            }
            Action::Pass => Text::new("No demolition now", "现在不炸桥"),
            Action::Place { unit, at } => {
                let t = u(unit);
                let h = self.hid(at);
                Text::new(format!("Place {} at {h}", t.en), format!("把{}放在 {h}", t.zh))
            }
            Action::Boats { unit, to } => {
                let t = u(unit);
                let h = self.hid(to);
                Text::new(
                    format!("{} crosses the Our to {h} in rubber boats (4.2, all MP)", t.en),
                    format!("{}乘橡皮艇渡乌尔河到 {h}(4.2,用尽移动力)", t.zh),
                )
            }
            Action::AirSupply { hex } => {
                let h = self.hid(hex);
                Text::new(
                    format!("Turn an air strike into Air Supply at {h} (2.2)"),
                    format!("将一次空袭改为在 {h} 的空中补给(2.2)"),
                )
            }
            Action::Resupply { unit, roll } => {
                let t = u(unit);
                if roll {
                    Text::new(
                        format!("Roll for {} on the Artillery Resupply Table (3.7)", t.en),
                        format!("为{}掷火炮空中补给表(3.7)", t.zh),
                    )
                } else {
                    Text::new(format!("Leave {} DG (3.7)", t.en), format!("让{}保持混乱(3.7)", t.zh))
                }
            }
            Action::BugOut { unit, to } => {
                let t = u(unit);
                let h = self.hid(to);
                Text::new(
                    format!("{} bugs out to {h} (3.6)", t.en),
                    format!("{}逃跑到 {h}(3.6)", t.zh),
                )
            }
            Action::StayPut { unit } => {
                let t = u(unit);
                Text::new(
                    format!("{} has nowhere to bug out to and stays (3.6)", t.en),
                    format!("{}无处可逃,留在原地(3.6)", t.zh),
                )
            }
            Action::Attempt { unit } => {
                let t = u(unit);
                Text::new(
                    format!("{} makes the demolition attempt and stops (3.8)", t.en),
                    format!("{}进行炸桥并停止移动(3.8)", t.zh),
                )
            }
            Action::Observe { unit } => {
                let t = u(unit);
                Text::new(
                    format!("{} observes the barrage (3.5)", t.en),
                    format!("{}担任本次射击的观测员(3.5)", t.zh),
                )
            }
            Action::Die { face } => Text::new(format!("Die: {face}"), format!("骰子:{face}")),
        }
    }

    pub(crate) fn notation_of(&self, a: &Action) -> String {
        match *a {
            Action::Move { unit, to, ref via } if via.is_empty() => format!("move {} {}", self.uid(unit), self.hid(to)),
            Action::Move { unit, to, ref via } => {
                let ids: Vec<String> = via.iter().map(|&h| self.hid(h)).collect();
                format!("move {} {} via {}", self.uid(unit), self.hid(to), ids.join(" "))
            }
            Action::MoveStack { ref units, to, ref via } => {
                let ids: Vec<String> = units.iter().map(|&u| self.uid(u)).collect();
                let route: Vec<String> = via.iter().map(|&h| self.hid(h)).collect();
                let mut t = format!("move-stack {} with {}", self.hid(to), ids.join(" "));
                if !route.is_empty() {
                    t.push_str(&format!(" via {}", route.join(" ")));
                }
                t
            }
            Action::Fire { unit, target } => format!("fire {} {}", self.uid(unit), self.hid(target)),
            Action::AirStrike { target } => format!("air-strike {}", self.hid(target)),
            Action::EndPhase => "end-phase".into(),
            Action::Attack { target } => format!("attack {}", self.hid(target)),
            Action::Join { unit } => format!("join {}", self.uid(unit)),
            Action::Resolve => "resolve".into(),
            Action::CallOff => "call-off".into(),
            Action::Stand => "stand".into(),
            Action::Withdraw => "withdraw".into(),
            Action::Lose { unit } => format!("lose {}", self.uid(unit)),
            Action::RetreatTo { to } => format!("retreat {}", self.hid(to)),
            Action::Advance { unit, to } => format!("advance {} {}", self.uid(unit), self.hid(to)),
            Action::EndAdvance => "end-advance".into(),
            Action::Overrun { ref units, target } => {
                let ids: Vec<String> = units.iter().map(|&u| self.uid(u)).collect();
                format!("overrun {} with {}", self.hid(target), ids.join(" "))
            }
            Action::Exit { unit } => format!("exit {}", self.uid(unit)),
            Action::BugOut { unit, to } => format!("bug-out {} {}", self.uid(unit), self.hid(to)),
            Action::StayPut { unit } => format!("stay {}", self.uid(unit)),
            Action::Observe { unit } => format!("observe {}", self.uid(unit)),
            Action::Attempt { unit } => format!("attempt {}", self.uid(unit)),
            Action::Demolish { symbol } => format!("demolish {}", self.hid(symbol)),
            Action::Pass => "pass".into(),
            Action::Place { unit, at } => format!("place {} {}", self.uid(unit), self.hid(at)),
            Action::Boats { unit, to } => format!("boats {} {}", self.uid(unit), self.hid(to)),
            Action::AirSupply { hex } => format!("air-supply {}", self.hid(hex)),
            Action::Resupply { unit, roll } => {
                format!("resupply {} {}", self.uid(unit), if roll { "roll" } else { "wait" })
            }
            Action::Die { face } => format!("die {face}"),
        }
    }

    /// Reads a typed action, legal now or not.
    pub(crate) fn parse_typed(&self, text: &str) -> Option<Action> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let unit = |s: &str| self.w.data.counters.index(s);
        let hex = |s: &str| self.w.map.grid.parse(s).ok();
        Some(match words.as_slice() {
            ["move", u, h] => Action::move_to(unit(u)?, hex(h)?),
            ["move", u, h, "via", rest @ ..] if !rest.is_empty() => Action::Move {
                unit: unit(u)?,
                to: hex(h)?,
                via: rest.iter().map(|h| hex(h)).collect::<Option<Vec<_>>>()?.into(),
            },
            ["fire", u, h] => Action::Fire {
                unit: unit(u)?,
                target: hex(h)?,
            },
            ["air-strike", h] => Action::AirStrike { target: hex(h)? },
            ["end-phase"] => Action::EndPhase,
            ["attack", h] => Action::Attack { target: hex(h)? },
            ["join", u] => Action::Join { unit: unit(u)? },
            ["resolve"] => Action::Resolve,
            ["call-off"] => Action::CallOff,
            ["stand"] => Action::Stand,
            ["withdraw"] => Action::Withdraw,
            ["lose", u] => Action::Lose { unit: unit(u)? },
            ["retreat", h] => Action::RetreatTo { to: hex(h)? },
            ["advance", u, h] => Action::Advance {
                unit: unit(u)?,
                to: hex(h)?,
            },
            ["end-advance"] => Action::EndAdvance,
            ["exit", u] => Action::Exit { unit: unit(u)? },
            ["bug-out", u, h] => Action::BugOut {
                unit: unit(u)?,
                to: hex(h)?,
            },
            ["stay", u] => Action::StayPut { unit: unit(u)? },
            ["observe", u] => Action::Observe { unit: unit(u)? },
            ["attempt", u] => Action::Attempt { unit: unit(u)? },
            ["demolish", h] => Action::Demolish { symbol: hex(h)? },
            ["pass"] => Action::Pass,
            ["place", u, h] => Action::Place {
                unit: unit(u)?,
                at: hex(h)?,
            },
            ["boats", u, h] => Action::Boats {
                unit: unit(u)?,
                to: hex(h)?,
            },
            ["air-supply", h] => Action::AirSupply { hex: hex(h)? },
            ["resupply", u, "roll"] => Action::Resupply {
                unit: unit(u)?,
                roll: true,
            },
            ["resupply", u, "wait"] => Action::Resupply {
                unit: unit(u)?,
                roll: false,
            },
            ["move-stack", h, "with", rest @ ..] if !rest.is_empty() => {
                let (ids, route) = match rest.iter().position(|w| *w == "via") {
                    Some(k) if k + 1 < rest.len() => (&rest[..k], &rest[k + 1..]),
                    Some(_) => return None,
                    None => (rest, &[][..]),
                };
                Action::MoveStack {
                    to: hex(h)?,
                    units: ids.iter().map(|u| unit(u)).collect::<Option<Vec<_>>>()?.into(),
                    via: route.iter().map(|h| hex(h)).collect::<Option<Vec<_>>>()?.into(),
                }
            }
            ["overrun", h, "with", rest @ ..] if !rest.is_empty() => Action::Overrun {
                target: hex(h)?,
                units: rest.iter().map(|u| unit(u)).collect::<Option<Vec<_>>>()?,
            },
            _ => return None,
        })
    }

    /// What each action is about on the board: its counters and hexes, how it is taken, the
    /// heading it is listed under, and for a move the MP it costs.
    pub(crate) fn targets_of(&self, actions: &[Action]) -> Vec<Targets> {
        let b = Board::new(&self.w, &self.s);
        let mut costs: std::collections::HashMap<UnitId, crate::memo::Reach> = Default::default();
        let mut stacks: std::collections::HashMap<Vec<UnitId>, crate::memo::Reach> = Default::default();
        let at = |units: &[UnitId], hexes: &[Hex], kind: ActionKind| Targets {
            units: units.iter().map(|&u| self.uid(u)).collect(),
            hexes: hexes.iter().map(|&h| self.hid(h)).collect(),
            kind,
            ..Targets::default()
        };
        let noted = |t: Targets, en: &str, zh: &str| Targets {
            note: Some(Text::new(en, zh)),
            ..t
        };
        actions
            .iter()
            .map(|a| {
                let mut t = match *a {
                    Action::Move { unit, to, .. } if (unit as usize) < self.s.units.len() => {
                        let reach = costs
                            .entry(unit)
                            .or_insert_with(|| with_search(|search| b.destinations(unit, search)));
                        let note = reach
                            .binary_search_by_key(&to, |&(h, _)| h)
                            .ok()
                            .map(|i| sandtable_core::text::half_mp(reach[i].1));
                        Targets {
                            note,
                            ..at(&[unit], &[to], ActionKind::Move)
                        }
                    }
                    Action::MoveStack { ref units, to, .. } => {
                        let reach = stacks
                            .entry(units.to_vec())
                            .or_insert_with(|| with_search(|search| b.stack_destinations(units, search)));
                        let note = reach
                            .binary_search_by_key(&to, |&(h, _)| h)
                            .ok()
                            .map(|i| sandtable_core::text::half_mp(reach[i].1));
                        Targets {
                            note,
                            ..at(units, &[to], ActionKind::Move)
                        }
                    }
                    Action::Fire { unit, target } => at(&[unit], &[target], ActionKind::Attack),
                    Action::AirStrike { target } | Action::Attack { target } => at(&[], &[target], ActionKind::Attack),
                    Action::Join { unit } | Action::Lose { unit } => at(&[unit], &[], ActionKind::Choose),
                    Action::RetreatTo { to } => at(&[], &[to], ActionKind::Place),
                    Action::Advance { unit, to } | Action::BugOut { unit, to } => at(&[unit], &[to], ActionKind::Move),
                    Action::Overrun { ref units, target } => {
                        noted(at(units, &[target], ActionKind::Attack), "overrun", "突袭")
                    }
                    Action::Exit { unit }
                    | Action::StayPut { unit }
                    | Action::Resupply { unit, .. }
                    | Action::Observe { unit }
                    | Action::Attempt { unit } => at(&[unit], &[], ActionKind::Choose),
                    // The unit placed is not on the board yet: only its hexes can be clicked.
                    Action::Place { at: to, .. } => at(&[], &[to], ActionKind::Place),
                    Action::Boats { unit, to } => noted(at(&[unit], &[to], ActionKind::Move), "boats", "橡皮艇"),
                    Action::AirSupply { hex } => noted(at(&[], &[hex], ActionKind::Place), "air supply", "空中补给"),
                    Action::Demolish { symbol } => noted(at(&[], &[symbol], ActionKind::Choose), "demolition", "炸桥"),
                    _ => Targets::default(),
                };
                t.group = group_of(a);
                t
            })
            .collect()
    }

    /// The state as every seat may see it: Ardennes II hides nothing (SCS: both players see
    /// every stack).
    pub(crate) fn view_for(&self, _seat: Option<Seat>) -> serde_json::Value {
        let units: Vec<serde_json::Value> = self
            .s
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.hex().is_some())
            .map(|(i, u)| {
                let def = &self.w.data.counters.units[i];
                json!({
                    "id": def.id, "name_en": def.name_en, "name_zh": def.name_zh,
                    "side": def.side, "values": def.values(u.reduced), "factors": def.values(u.reduced),
                    "reduced": u.reduced,
                    "dg": u.dg, "loc": u.hex().map(|h| self.hid(h)), "moved": u.moved,
                })
            })
            .collect();
        let markers: Vec<serde_json::Value> = self
            .s
            .markers
            .iter()
            .map(|m| json!({"hex": self.hid(m.hex), "side": m.side, "full": m.full, "half": m.half}))
            .collect();
        let control: Vec<serde_json::Value> = self
            .w
            .data
            .tables
            .vp_hexes
            .iter()
            .zip(&self.s.control)
            .map(|(v, c)| json!({"hex": self.hid(v.hex), "vp": v.vp, "side": c}))
            .collect();
        json!({
            "game": "ardennes-ii", "scenario": self.s.scenario, "turn": self.s.turn,
            "phase": self.s.phase, "frozen": self.s.frozen, "air_strikes": self.s.air_strikes,
            "vp": self.german_vp(), "vp_max": self.s.vp_max, "units": units, "markers": markers,
            "control": control, "over": self.is_over(),
            "air_supply": self.s.air_supply.iter().map(|&h| self.hid(h)).collect::<Vec<_>>(),
            "bridges_blown": self.s.blown.iter().map(|&h| self.hid(h)).collect::<Vec<_>>(),
            "bridges_tested": self.s.tested.iter().map(|&h| self.hid(h)).collect::<Vec<_>>(),
        })
    }

    pub(crate) fn summary_for(&self, _seat: Option<Seat>, lang: Lang) -> String {
        let scenario = self.scenario();
        let name = Text::new(
            format!("{} {}", scenario.rule, scenario.name_en),
            format!("{} {}", scenario.rule, scenario.name_zh),
        );
        let date = crate::sequence::date(self.s.turn);
        let phase = self.s.phase.name();
        let who = match sandtable_core::game::Game::pending(self) {
            sandtable_core::game::Pending::Seat(0) => side_name(Side::German),
            sandtable_core::game::Pending::Seat(_) => side_name(Side::Allied),
            _ => Text::new("nobody", "无人"),
        };
        let vp = self.german_vp();
        let combat = self.combat().map(|c| {
            let h = self.hid(c.target);
            let stage = match c.stage {
                Stage::Commit => Text::new("committing attackers", "投入攻击单位"),
                Stage::StandOrRetreat => Text::new("the defender stands or retreats", "防御方选择坚守或撤退"),
                Stage::AttackerLoss => Text::new("attacker losses", "攻击方损失"),
                Stage::DefenderLoss => Text::new("defender losses", "防御方损失"),
                Stage::Retreat => Text::new("the defender retreats", "防御方撤退"),
                Stage::Advance => Text::new("advance after combat", "战后挺进"),
            };
            Text::new(format!("Attack on {h}: {}", stage.en), format!("攻击 {h}:{}", stage.zh))
        });
        let t = Text::new(
            format!(
                "{}\nTurn {} of {} ({}), {}\nTo act: {}. German VP now {vp}, best at a turn's end {}. US air strikes left: {}.{}\n",
                name.en,
                self.s.turn,
                self.s.last_turn,
                date.en,
                phase.en,
                who.en,
                self.s.vp_max,
                self.s.air_strikes,
                combat.as_ref().map(|c| format!("\n{}", c.en)).unwrap_or_default()
            ),
            format!(
                "{}\n第{}回合(共{}回合,{}),{}\n轮到:{}。德军当前 VP {vp},回合结束时最高 {}。美军剩余空袭:{}。{}\n",
                name.zh,
                self.s.turn,
                self.s.last_turn,
                date.zh,
                phase.zh,
                who.zh,
                self.s.vp_max,
                self.s.air_strikes,
                combat.as_ref().map(|c| format!("\n{}", c.zh)).unwrap_or_default()
            ),
        );
        t.get(lang).to_string()
    }

    fn nato(&self, u: UnitId) -> NatoSymbol {
        use crate::data::UnitType::*;
        match self.w.data.counters.units[u as usize].utype {
            Armor => NatoSymbol::Armor,
            ArmoredRecon => NatoSymbol::Cavalry,
            MechInfantry => NatoSymbol::Mechanized,
            Artillery | RocketArtillery => NatoSymbol::Artillery,
            _ => NatoSymbol::Infantry,
        }
    }

    /// The whole board: the map with the turn in its title, and the pieces.
    pub(crate) fn render(&self, seat: Option<Seat>, lang: Lang) -> String {
        let title = match lang {
            Lang::Zh => format!("阿登 II — {} — 第{}回合", self.scenario.name_zh, self.s.turn),
            Lang::En => format!("Ardennes II — {} — turn {}", self.scenario.name_en, self.s.turn),
        };
        put_pieces(&self.map_base(lang, &title), &self.draw_pieces(seat, lang))
    }

    /// The map alone, the same all game long: terrain, lines, names and the hexes outside the
    /// scenario's playing area, shaded (7.0); the bridges the Germans build come with the
    /// pieces, from their day.
    pub(crate) fn draw_map(&self, lang: Lang) -> String {
        let title = match lang {
            Lang::Zh => format!("阿登 II — {}", self.scenario.name_zh),
            Lang::En => format!("Ardennes II — {}", self.scenario.name_en),
        };
        self.map_base(lang, &title)
    }

    fn map_base(&self, lang: Lang, title: &str) -> String {
        // 7.0: the hexes outside the scenario's playing area, shaded.
        let mut outside = Vec::new();
        if let Some(area) = &self.s.area {
            outside.extend(self.w.map.grid.hexes().filter(|h| !area[h.idx()]).map(|hex| HexMark {
                hex,
                fill: "rgba(90,90,90,0.55)".into(),
                label: String::new(),
                note: String::new(),
            }));
        }
        render_hex_base(&self.w.map, &map_style(), &outside, lang, title)
    }

    /// What changes on the map: the counters, barrage markers and DG, the ZOC Bonds, the
    /// control of the VP hexes, the demolition symbols and the bridges built so far.
    pub(crate) fn draw_pieces(&self, _seat: Option<Seat>, lang: Lang) -> String {
        let mut counters = Vec::new();
        for (i, st) in self.s.units.iter().enumerate() {
            let Some(h) = st.hex() else { continue };
            let def = &self.w.data.counters.units[i];
            let (fill, ink) = match def.nation {
                crate::data::Nation::Us => ("#8fae6b", "#111"),
                crate::data::Nation::British => ("#c8a26b", "#111"),
                crate::data::Nation::Belgian => ("#7fa7d6", "#111"),
                crate::data::Nation::Wehrmacht => ("#9aa3a8", "#111"),
                crate::data::Nation::WaffenSs => ("#3c3c3c", "#fff"),
                crate::data::Nation::Luftwaffe => ("#7a9cc6", "#111"),
            };
            let f = def.face(st.reduced);
            let factors = match def.range {
                Some(r) => format!("[{r}]-{}-{}", f.defence, f.ma),
                None => format!("{}-{}-{}", f.attack, f.defence, f.ma),
            };
            let name = if st.dg {
                format!("{} DG", short(&def.id))
            } else {
                short(&def.id)
            };
            counters.push(Counter {
                hex: h,
                fill: fill.into(),
                ink: ink.into(),
                name,
                symbol: self.nato(i as UnitId),
                factors,
                reduced: st.reduced,
                title: self.unit_text(i as UnitId).get(lang).to_string(),
                id: def.id.clone(),
            });
        }
        let mut marks = Vec::new();
        for m in &self.s.markers {
            let label = match (m.full, m.half) {
                (f, 0) => format!("{f}F"),
                (0, h) => format!("{h}H"),
                (f, h) => format!("{f}F{h}H"),
            };
            marks.push(HexMark {
                hex: m.hex,
                fill: if m.side == Side::German {
                    "rgba(80,80,80,0.35)"
                } else {
                    "rgba(60,130,60,0.35)"
                }
                .into(),
                label,
                note: String::new(),
            });
        }
        // 1.2: ZOC Bond hexes, tinted by the side whose posts hold them.
        let b = Board::new(&self.w, &self.s);
        for side in [Side::German, Side::Allied] {
            for h in b.bond_hexes(side) {
                marks.push(HexMark {
                    hex: h,
                    fill: if side == Side::German {
                        "rgba(70,70,70,0.22)"
                    } else {
                        "rgba(60,120,40,0.25)"
                    }
                    .into(),
                    label: "ZOC".into(),
                    note: String::new(),
                });
            }
        }
        for (v, c) in self.w.data.tables.vp_hexes.iter().zip(&self.s.control) {
            if *c == Side::German && !self.s.markers.iter().any(|m| m.hex == v.hex) {
                marks.push(HexMark {
                    hex: v.hex,
                    fill: "rgba(40,40,40,0.18)".into(),
                    label: String::new(),
                    note: String::new(),
                });
            }
        }
        // 3.8: the demolition symbols, primed, blown or tested.
        for (symbol, _) in &self.w.demolitions {
            // A sign beside the counters (the map legend reads them): charged, blown, tested.
            let (fill, sign) = if self.s.blown.contains(symbol) {
                ("rgba(200,30,30,0.5)", "✕")
            } else if self.s.tested.contains(symbol) {
                ("rgba(110,110,110,0.4)", "○")
            } else {
                ("rgba(235,130,30,0.35)", "✹")
            };
            marks.push(HexMark {
                hex: *symbol,
                fill: fill.into(),
                label: sign.into(),
                note: String::new(),
            });
        }
        render_hex_pieces(&self.w.map, &built_bridges(self.s.turn), &counters, &marks)
    }
}

impl ArdennesII {
    /// Before an attack is declared, joined or resolved (3.2): the defenders and their hex, the
    /// attackers (every unit that may join, for a declaration), the strengths with each column
    /// shift and its rule, and the CRT's result for each roll of two dice.
    pub(crate) fn preview_of(&self, a: &Action) -> Vec<Text> {
        let b = Board::new(&self.w, &self.s);
        let side = self.attacker_side();
        match *a {
            Action::Fire { unit, target } => return self.barrage_preview(Some(unit), target),
            Action::AirStrike { target } => return self.barrage_preview(None, target),
            _ => {}
        }
        let (target, attackers, declaring) = match (a, self.combat()) {
            (&Action::Attack { target }, _) => (target, self.attackers_of(&b, side, target), true),
            (&Action::Join { unit }, Some(c)) => {
                let mut all = c.attackers.clone();
                all.push(unit);
                (c.target, all, false)
            }
            (&Action::Resolve, Some(c)) => (c.target, c.attackers.clone(), false),
            _ => return Vec::new(),
        };
        let defenders: Vec<UnitId> = match self.combat() {
            Some(c) if !declaring => c.defenders.clone(),
            _ => b
                .units_at(target)
                .into_iter()
                .filter(|&u| self.unit_side(u) != side)
                .collect(),
        };
        let names = |list: &[UnitId]| -> (String, String) {
            let t: Vec<Text> = list.iter().map(|&u| self.unit_text(u)).collect();
            (
                t.iter().map(|t| t.en.as_str()).collect::<Vec<_>>().join(", "),
                t.iter().map(|t| t.zh.as_str()).collect::<Vec<_>>().join("、"),
            )
        };
        let hex = self.hid(target);
        let (den, dzh) = names(&defenders);
        let (aen, azh) = names(&attackers);
        let mut out = vec![Text::new(
            format!("Defending {hex}: {den}"),
            format!("防守 {hex}:{dzh}"),
        )];
        out.push(if declaring {
            Text::new(
                format!("May join ({}, SCS 7.1): {aen}", attackers.len()),
                format!("可加入攻击的单位({} 个,SCS 7.1):{azh}", attackers.len()),
            )
        } else {
            Text::new(format!("Attacking: {aen}"), format!("攻击单位:{azh}"))
        });
        let o = self.odds_of(&b, &attackers, &defenders, target);
        let n = |v: u32| {
            let whole = v / EIGHTHS;
            match v % EIGHTHS {
                0 => format!("{whole}"),
                r => format!("{}", whole as f64 + r as f64 / EIGHTHS as f64),
            }
        };
        let (at, de) = (n(o.attack), n(o.defence));
        let crt = &self.w.data.tables.crt;
        let raw = crt
            .columns
            .label(crt.columns.clamp(crt.columns.ladder(o.attack, o.defence).unwrap_or(0)));
        let col = crt.columns.label(o.column);
        let (t, h) = (o.terrain, o.hexsides);
        let all_en = if declaring { " with all of them" } else { "" };
        let all_zh = if declaring { "(全部加入时)" } else { "" };
        out.push(Text::new(
            format!("{at} against {de}{all_en} = {raw}; defender's terrain {t} column(s) left (TEC, 1.3), hexsides attacked across {h} left (1.3) → column {col}"),
            format!("{at} 对 {de}{all_zh} = {raw};防御方地形左移 {t} 列(地形效果表,1.3),进攻所越格边左移 {h} 列(1.3)→ {col} 栏"),
        ));
        let row: Vec<String> = (0..crt.rows.len() as i32)
            .map(|k| {
                let die = crt.die_min + k;
                format!("{die}: {}", crt.result(o.column, die).label())
            })
            .collect();
        out.push(Text::new(
            format!("CRT, roll of two dice (3.2): {}", row.join(" · ")),
            format!("战斗结果表,两骰之和(3.2):{}", row.join(" · ")),
        ));
        out
    }

    /// Before a barrage (3.5): the stack fired at, the die modifiers with their rules and, for
    /// each face of the die, the marker it places by the target's terrain.
    fn barrage_preview(&self, unit: Option<UnitId>, target: Hex) -> Vec<Text> {
        let b = Board::new(&self.w, &self.s);
        let side = unit.map_or(Side::Allied, |u| self.unit_side(u));
        let occupants = b.count(target) as i32;
        let occupant = b.side_at(target);
        let from = unit.and_then(|u| self.s.units[u as usize].hex());
        let against = from.map_or(0, |h| b.full_markers(h, side.enemy()) as i32);
        let rules = &self.w.data.tables.barrage;
        let extra = (occupants - 1).max(0) * rules.extra_unit_drm as i32;
        let marked = against * rules.enemy_marker_at_artillery_drm as i32;
        let hex = self.hid(target);
        let stack: Vec<Text> = b.units_at(target).into_iter().map(|u| self.unit_text(u)).collect();
        let (en, zh): (Vec<&str>, Vec<&str>) = stack.iter().map(|t| (t.en.as_str(), t.zh.as_str())).unzip();
        let mut out = vec![if stack.is_empty() {
            Text::new(format!("Fired at: {hex}, empty"), format!("射击目标:{hex},无单位"))
        } else {
            Text::new(
                format!("Fired at: {hex}: {}", en.join(", ")),
                format!("射击目标:{hex}:{}", zh.join("、")),
            )
        }];
        out.push(Text::new(
            format!("Die modifiers: {extra:+} for the units beyond the first in the hex, {marked:+} for enemy Full markers where the artillery stands (3.5)"),
            format!("骰修正:目标格第一个之外的单位 {extra:+},火炮所在格的敌方完整标记 {marked:+}(3.5)"),
        ));
        let names: Vec<&str> = self.w.terrain_names[target.idx()].iter().map(|s| s.as_ref()).collect();
        match self.w.data.tables.tec.barrage_roll(occupant, &names) {
            Some(roll) => {
                let row: Vec<(String, String)> = (1..=6)
                    .map(|die| {
                        let (e, z) = match roll.result(die + extra + marked) {
                            Some(crate::data::BarrageStrength::Full) => ("Full", "完整"),
                            Some(crate::data::BarrageStrength::Half) => ("Half", "半数"),
                            None => ("-", "-"),
                        };
                        (format!("{die}: {e}"), format!("{die}:{z}"))
                    })
                    .collect();
                let (re, rz): (Vec<String>, Vec<String>) = row.into_iter().unzip();
                out.push(Text::new(
                    format!(
                        "Barrage table by the target's terrain, die by die (3.5): {}",
                        re.join(" · ")
                    ),
                    format!("按目标地形查射击表,逐骰(3.5):{}", rz.join(" · ")),
                ));
            }
            None => out.push(Text::new(
                "No barrage roll for this terrain (3.5)",
                "此地形无射击判定(3.5)",
            )),
        }
        out
    }

    /// The odds of the combat in progress as a player checks them: the strengths, each column
    /// shift with its rule, and the CRT column (3.2, 1.3, SCS 7.3).
    fn odds_text(&self) -> Text {
        let Some(c) = self.combat() else {
            return Text::new("", "");
        };
        let o = self.odds(&Board::new(&self.w, &self.s), c);
        let n = |v: u32| {
            let whole = v / EIGHTHS;
            match v % EIGHTHS {
                0 => format!("{whole}"),
                r => format!("{}", whole as f64 + r as f64 / EIGHTHS as f64),
            }
        };
        let (a, d) = (n(o.attack), n(o.defence));
        let crt = &self.w.data.tables.crt;
        let raw = crt.columns.clamp(crt.columns.ladder(o.attack, o.defence).unwrap_or(0));
        let (raw, col) = (crt.columns.label(raw), crt.columns.label(o.column));
        let (t, h) = (o.terrain, o.hexsides);
        Text::new(
            format!(
                "{a} against {d} → {raw}; {t} column(s) left for the defender's terrain, {h} for the hexsides attacked across (1.3) → {col}"
            ),
            format!("{a} 对 {d} → {raw};防御方地形左移 {t} 列,进攻所越格边左移 {h} 列(1.3)→ {col}"),
        )
    }
}

impl ArdennesII {
    /// The charts beside the board, from the game's data (issue 11): how a turn goes (the
    /// sequence of play, 2.0), the CRT, the terrain effects chart, the turn track, the map
    /// legend and a glossary.
    pub(crate) fn charts_of(&self) -> Vec<Chart> {
        use crate::data::{Cost, SideCost};
        use crate::sequence::Phase;
        let tables = &self.w.data.tables;
        let t = |en: &str, zh: &str| Text::new(en, zh);
        let same = |s: String| Text::new(s.clone(), s);
        // The sequence of play, from the game's own phases, as a turn after the first runs it.
        let mut phases = Vec::new();
        let mut p = Some(Phase::FIRST);
        while let Some(ph) = p {
            phases.push(ph);
            p = ph.next(2);
        }
        let asks = |ph: Phase| -> Text {
            let side = ph.phasing().map(side_name);
            match ph {
                Phase::Weather => t(
                    "A die for the freeze, from turn 8 until Frozen.",
                    "从第8回合起掷骰判定封冻,直到封冻。",
                ),
                Phase::AirStrikes => t(
                    "The US rolls its air strikes for the turn.",
                    "美军掷骰决定本回合空袭次数。",
                ),
                Phase::AirSupply => t(
                    "The US may turn air strikes into air supply (3.7).",
                    "美军可将空袭改为空中补给(3.7)。",
                ),
                Phase::Reinforcements => t(
                    "Both sides place their arrivals at their entry areas.",
                    "双方在入场区域放置增援。",
                ),
                Phase::MarkerRemoval => t(
                    "Barrage markers go; DG comes off stacks that qualify (3.4, 3.5).",
                    "移除射击标记;符合条件的堆叠移除 DG(3.4, 3.5)。",
                ),
                Phase::Movement(_) => {
                    let s = side.unwrap_or_default();
                    Text::new(
                        format!("{}: move (click a counter, then a lit hex), barrage with artillery, overrun on the way (3.3, 3.5).", s.en),
                        format!("{}:移动(点击算子,再点击亮起的格子),用火炮射击,途中突袭(3.3, 3.5)。", s.zh),
                    )
                }
                Phase::UsBarrage => t(
                    "The US fires its artillery in the German turn (3.5).",
                    "美军在德军回合中用火炮射击(3.5)。",
                ),
                Phase::Combat(_) => {
                    let s = side.unwrap_or_default();
                    Text::new(
                        format!("{}: declare an attack on a hex, add the units next to it, resolve with two dice; the defender may retreat before combat (3.2).", s.en),
                        format!("{}:宣告攻击一格,加入相邻单位,掷两骰结算;防御方可在战斗前撤退(3.2)。", s.zh),
                    )
                }
                Phase::Exploitation(_) => t(
                    "Exploit-capable units move and overrun again (SCS 11.0).",
                    "具备战果扩张能力的单位再次移动和突袭(SCS 11.0)。",
                ),
                Phase::Supply(_) => t(
                    "The phasing side traces supply; units out of it become DG (3.7).",
                    "行动方检查补给;无补给单位成为 DG(3.7)。",
                ),
                Phase::BarrageRemoval(_) => t("The enemy's barrage markers come off.", "移除敌方的射击标记。"),
                Phase::SetUp => t("Units placed before the first turn.", "第一回合前放置单位。"),
            }
        };
        let play = Chart {
            id: "play".into(),
            title: t("How this game plays", "本游戏怎么玩"),
            note: t(
                "A turn is a day, phase by phase (2.0): a pre-turn, then the German player turn, then the US player turn; on turn 1 there is no German exploitation (4.3). Victory is by VP hexes held (6.0, each scenario of 7.0). The rulebook has no map and no counter manifest: Sandtable reconstructs them, each with its basis (reconstructed data).",
                "每回合代表一天,分为若干阶段(2.0):回合前阶段、德军玩家回合、美军玩家回合;第1回合德军没有战果扩张阶段(4.3)。按控制的 VP 格判定胜负(6.0,各剧本见 7.0)。规则书没有地图和算子清单:沙盘按各自的依据重建了它们(重建数据)。",
            ),
            head: vec![t("Phase", "阶段"), t("What it asks of you", "你要做什么")],
            rows: phases.iter().map(|&ph| vec![ph.name(), asks(ph)]).collect(),
            swatches: Vec::new(),
        };
        let crt_t = &tables.crt;
        let cols: Vec<String> = (0..crt_t.columns.len()).map(|c| crt_t.columns.label(c)).collect();
        let crt = Chart {
            id: "crt".into(),
            title: t("Combat results table", "战斗结果表"),
            note: t(
                "Two dice (3.2). The column: attack against defence, shifted left by the defender's terrain and by each hexside attacked across (1.3).",
                "两骰之和(3.2)。栏:攻击力对防御力,按防御方地形和每个被跨越攻击的格边左移(1.3)。",
            ),
            head: std::iter::once(t("Dice", "骰"))
                .chain(cols.iter().map(|c| same(c.clone())))
                .collect(),
            rows: (0..crt_t.rows.len() as i32)
                .map(|k| {
                    let die = crt_t.die_min + k;
                    std::iter::once(same(die.to_string()))
                        .chain((0..cols.len()).map(|c| same(crt_t.result(c, die).label())))
                        .collect()
                })
                .collect(),
            swatches: Vec::new(),
        };
        let cost = |c: &Cost| match c {
            Cost::Mp(m) => same(m.to_string()),
            Cost::Prohibited => t("P (prohibited)", "P(禁止)"),
            Cost::Other => t("other terrain", "其他地形"),
        };
        let side_cost = |c: &SideCost| match c {
            SideCost::Add(m) => same(format!("+{m}")),
            SideCost::Prohibited => t("P (prohibited)", "P(禁止)"),
        };
        let tec = &tables.tec;
        let mut tec_rows: Vec<Vec<Text>> = tec
            .terrain
            .values()
            .map(|r| {
                vec![
                    Text::new(r.name_en.clone(), r.name_zh.clone()),
                    cost(&r.foot),
                    cost(&r.mech),
                    same(r.shift.to_string()),
                ]
            })
            .collect();
        for r in tec.road.values() {
            tec_rows.push(vec![
                Text::new(r.name_en.clone(), r.name_zh.clone()),
                same(r.foot.to_string()),
                same(r.mech.to_string()),
                same("—".into()),
            ]);
        }
        for r in tec.hexside.values() {
            tec_rows.push(vec![
                Text::new(r.name_en.clone(), r.name_zh.clone()),
                side_cost(&r.foot),
                side_cost(&r.mech),
                same(format!(
                    "{} ({})",
                    r.shift,
                    t("each attacking stack", "每个攻击堆叠").en
                )),
            ]);
        }
        let tec_chart = Chart {
            id: "tec".into(),
            title: t("Terrain effects chart", "地形效果表"),
            note: t(
                "Movement points to enter (foot, mechanized), and columns the defender's terrain shifts an attack left (1.3, TEC). Hexsides add to the cost of the hex and shift once per stack attacking across them.",
                "进入所需移动力(徒步、机械化),以及防御方地形使攻击左移的栏数(1.3,地形效果表)。格边费用加在格子费用上;每个跨越该格边攻击的堆叠左移一次。",
            ),
            head: vec![t("Terrain", "地形"), t("MP, foot", "移动力(徒步)"), t("MP, mechanized", "移动力(机械化)"), t("Combat: columns left", "战斗:左移栏数")],
            rows: tec_rows
                .into_iter()
                .map(|mut r| {
                    if let Some(last) = r.last_mut() {
                        if last.en.contains("each attacking stack") {
                            last.zh = last.zh.replace("each attacking stack", "每个攻击堆叠");
                        }
                    }
                    r
                })
                .collect(),
            swatches: Vec::new(),
        };
        let turns = Chart {
            id: "turns".into(),
            title: t("Turn track", "回合表"),
            note: t("One turn a day from 16 December 1944 (2.0); the weather is rolled from the turn the track says until the ground freezes (2.2).", "自1944年12月16日起每回合一天(2.0);从回合表所示回合起掷骰判定天气,直到地面封冻(2.2)。"),
            head: vec![t("Turn", "回合"), t("Date", "日期"), t("Weather", "天气"), t("Arrivals in this scenario", "本剧本的增援"), t("Special", "特别")],
            rows: tables
                .turns
                .iter()
                .map(|td| {
                    let d = crate::sequence::date(td.turn);
                    let weather = match (td.weather, td.weather_roll) {
                        (Some(crate::data::Weather::Frozen), _) => t("Frozen", "封冻"),
                        (Some(crate::data::Weather::NotFrozen), _) => t("Not frozen", "未封冻"),
                        (None, true) => t("roll (2.2)", "掷骰(2.2)"),
                        (None, false) => same("—".into()),
                    };
                    let mut sp_en = Vec::new();
                    let mut sp_zh = Vec::new();
                    if td.traffic_jams {
                        sp_en.push("traffic jams (3.1)");
                        sp_zh.push("交通堵塞(3.1)");
                    }
                    if td.our_boats {
                        sp_en.push("rubber boats on the Our (4.2)");
                        sp_zh.push("乌尔河橡皮艇(4.2)");
                    }
                    let count = |side: Side| -> usize {
                        self.scenario()
                            .arrivals
                            .iter()
                            .filter(|a| a.turn == td.turn && a.side == side)
                            .map(|a| a.units.len())
                            .sum()
                    };
                    let (g, u) = (count(Side::German), count(Side::Allied));
                    let arrivals = match (g, u) {
                        (0, 0) => same("—".into()),
                        _ => Text::new(format!("German {g}, US {u} units"), format!("德军 {g} 个、美军 {u} 个单位")),
                    };
                    vec![same(td.turn.to_string()), d, weather, arrivals, Text::new(sp_en.join(", "), sp_zh.join("、"))]
                })
                .collect(),
            swatches: Vec::new(),
        };
        let style = map_style();
        let terrain_name = |id: &str| -> Text {
            tec.terrain.get(id).map_or_else(
                || same(id.to_string()),
                |r| Text::new(r.name_en.clone(), r.name_zh.clone()),
            )
        };
        let line_name = |id: &str| -> Text {
            match id {
                "border" => t("National border, 1944 (no effect)", "1944年国界(无效果)"),
                "bridge" => t("Bridge", "桥梁"),
                _ => tec
                    .hexside
                    .get(id)
                    .map(|r| Text::new(r.name_en.clone(), r.name_zh.clone()))
                    .or_else(|| {
                        tec.road
                            .get(id)
                            .map(|r| Text::new(r.name_en.clone(), r.name_zh.clone()))
                    })
                    .unwrap_or_else(|| same(id.to_string())),
            }
        };
        let mut legend_rows = Vec::new();
        let mut swatches = Vec::new();
        for ts in &style.terrains {
            legend_rows.push(vec![terrain_name(&ts.terrain), t("terrain", "地形")]);
            swatches.push(ts.fill.clone());
        }
        for ls in &style.lines {
            legend_rows.push(vec![line_name(&ls.feature), t("line", "线")]);
            swatches.push(ls.stroke.clone());
        }
        for (sign, en, zh, colour) in [
            ("■ / ●", "city / village", "城市 / 村庄", "#222"),
            ("★", "VP hex (6.0)", "VP 格(6.0)", "#c0392b"),
            (
                "ZOC",
                "a ZOC Bond hex of the side of its colour (1.2)",
                "该颜色一方的控制键格(1.2)",
                "rgba(60,120,40,0.5)",
            ),
            (
                "✹",
                "bridge demolition symbol, charged (3.8)",
                "炸桥标志,已装药(3.8)",
                "rgba(235,130,30,0.6)",
            ),
            ("✕", "bridge blown (3.8)", "桥已炸毁(3.8)", "rgba(200,30,30,0.6)"),
            (
                "○",
                "demolition tried and failed (3.8)",
                "炸桥已尝试未成功(3.8)",
                "rgba(110,110,110,0.5)",
            ),
            (
                "②",
                "pieces in a stack: tap it for the list",
                "堆叠中的算子数:点按可列出",
                "#fff",
            ),
        ] {
            legend_rows.push(vec![same(sign.into()), t(en, zh)]);
            swatches.push(colour.to_string());
        }
        let legend = Chart {
            id: "legend".into(),
            title: t("Map legend", "地图图例"),
            note: t(
                "The map is reconstructed from real geography: the rulebook names hexes but has none.",
                "地图按真实地理重建:规则书只给出格号,没有地图。",
            ),
            head: vec![t("Sign", "图例"), t("Meaning", "含义")],
            rows: legend_rows,
            swatches,
        };
        let glossary = Chart {
            id: "glossary".into(),
            title: t("Glossary", "术语"),
            note: t(
                "What the CRT, the log and the counters print.",
                "战斗结果表、日志和算子上印的符号。",
            ),
            head: vec![t("Term", "术语"), t("Meaning", "含义")],
            rows: vec![
                vec![
                    same("A1, A2".into()),
                    t("the attacker loses 1 or 2 steps (3.2)", "攻击方损失1或2个战力(3.2)"),
                ],
                vec![
                    same("D1, D2".into()),
                    t("the defender loses 1 or 2 steps (3.2)", "防守方损失1或2个战力(3.2)"),
                ],
                vec![
                    same("r1, r2, r3".into()),
                    t(
                        "the defender retreats that many hexes, or loses steps instead (3.2)",
                        "防守方退却相应格数,或以损失战力代替(3.2)",
                    ),
                ],
                vec![same("-".into()), t("no effect", "无效果")],
                vec![
                    same("4-3-14, [6]-1-12".into()),
                    t(
                        "attack–defence–movement; [n] is an artillery unit's barrage strength",
                        "攻击力-防御力-移动力;[n]为火炮单位的射击力",
                    ),
                ],
                vec![
                    same("DG".into()),
                    t(
                        "disorganized: halved, slower, no ZOC Bond (3.4)",
                        "混乱:战力减半、移动力下降、不形成控制键(3.4)",
                    ),
                ],
                vec![
                    same("ZOC".into()),
                    t(
                        "ZOC Bond: a hex between two friendly stacks that enemies pay to enter (1.2)",
                        "控制键:两个己方堆叠之间的格,敌军进入须额外付费(1.2)",
                    ),
                ],
                vec![same("MP".into()), t("movement points", "移动力")],
                vec![same("VP".into()), t("victory points (6.0)", "胜利点(6.0)")],
                vec![
                    t("overrun", "突袭"),
                    t("an attack in the middle of movement (3.3)", "移动中途进行的攻击(3.3)"),
                ],
                vec![
                    t("barrage", "射击"),
                    t(
                        "artillery or an air strike firing on a hex, leaving a Half or Full marker (3.5)",
                        "火炮或空袭对一格射击,留下半效或全效标记(3.5)",
                    ),
                ],
            ],
            swatches: Vec::new(),
        };
        vec![play, crt, tec_chart, turns, legend, glossary]
    }
}

/// The heading an action is listed under, in both languages.
fn group_of(a: &Action) -> Text {
    let (en, zh) = match a {
        Action::Move { .. } => ("Move", "移动"),
        Action::MoveStack { .. } => ("Move stacks together", "堆叠一起移动"),
        Action::Fire { .. } => ("Barrage", "射击"),
        Action::AirStrike { .. } => ("Air strikes", "空袭"),
        Action::EndPhase => ("End the phase", "结束本阶段"),
        Action::Attack { .. } => ("Declare attacks", "宣告攻击"),
        Action::Join { .. } => ("Join the attack", "加入攻击"),
        Action::Resolve => ("Resolve combat", "结算战斗"),
        Action::CallOff => ("Call off the attack", "取消攻击"),
        Action::Stand | Action::Withdraw => ("Stand or retreat", "坚守或撤退"),
        Action::Lose { .. } => ("Take losses", "承受损失"),
        Action::RetreatTo { .. } => ("Retreat", "退却"),
        Action::Overrun { .. } => ("Overrun", "突袭"),
        Action::Exit { .. } => ("Leave the map", "撤出地图"),
        Action::BugOut { .. } | Action::StayPut { .. } => ("Bug out", "火炮逃跑"),
        Action::Place { .. } => ("Place", "放置"),
        Action::Demolish { .. } => ("Blow bridges", "炸桥"),
        Action::Pass => ("Pass", "放弃"),
        Action::Boats { .. } => ("Rubber boats", "橡皮艇渡河"),
        Action::AirSupply { .. } => ("Air supply", "空中补给"),
        Action::Resupply { .. } => ("Artillery resupply", "火炮空中补给"),
        Action::Advance { .. } => ("Advance", "战后推进"),
        Action::EndAdvance => ("End advance", "结束推进"),
        Action::Observe { .. } => ("Observer", "观测员"),
        Action::Attempt { .. } => ("Blow bridges", "炸桥"),
        Action::Die { .. } => ("Dice", "骰子"),
    };
    Text::new(en, zh)
}

/// A counter's short label from its id (`ger-1ss-kg-peiper` → `KG Peiper`-like tail).
fn short(id: &str) -> String {
    let parts: Vec<&str> = id.split('-').collect();
    parts.iter().rev().take(2).rev().cloned().collect::<Vec<_>>().join(" ")
}

/// The bridges the Germans have built by `turn`: each appears from its day (3.8).
fn built_bridges(turn: u8) -> Vec<LineStyle> {
    (1..=turn)
        .map(|day| {
            LineStyle::new(
                &format!("built-bridge-turn-{day}"),
                "#8a2a12",
                5.0,
                None,
                LineKind::Crossing,
            )
        })
        .collect()
}

/// The board's look (the bridges the Germans build are drawn with the pieces, [`built_bridges`]).
fn map_style() -> MapStyle {
    let t = TerrainStyle::new;
    let l = LineStyle::new;
    let lines = vec![
        l("border", "#5e3c7a", 1.6, Some("6 3"), LineKind::Hexside),
        l("stream", "#5b9bd5", 1.8, None, LineKind::Hexside),
        l("river", "#3f7fbf", 3.0, None, LineKind::Hexside),
        l("meuse", "#245f9e", 5.0, None, LineKind::Hexside),
        l("road", "#8b3a2b", 2.4, None, LineKind::Path),
        l("track", "#8b5a2b", 1.4, Some("5 3"), LineKind::Path),
        // 1.3, 3.8: the bridges carrying roads and tracks over water.
        l("bridge", "#3a3a3a", 5.0, None, LineKind::Crossing),
    ];
    MapStyle {
        terrains: vec![
            t("open", "#eee8c8", None),
            t("woods", "#bcd4a0", Some(TerrainSymbol::Trees)),
            t("forest", "#8fb87a", Some(TerrainSymbol::Trees)),
            t("marsh", "#bcd8cf", Some(TerrainSymbol::Marsh)),
            t("slope", "#d8c3a0", Some(TerrainSymbol::Peaks)),
            t("west-wall", "#d9cbb5", Some(TerrainSymbol::Cross)),
            t("traffic-jam", "#f0d0c0", None),
        ],
        lines,
        city_terrain: Some("city".into()),
        town_terrain: Some("village".into()),
        tag_marks: vec![("vp".into(), TagMark::Star)],
    }
}
