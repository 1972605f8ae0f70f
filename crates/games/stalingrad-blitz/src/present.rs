//! What players read and see: actions in words and in typeable notation, the situation in
//! words, the per-seat view (with the other side's chits removed), and the map as SVG.

use crate::data::{Nation, Side, UType};
use crate::state::*;
use crate::StalingradBlitz;
use sandtable_core::game::{ActionKind, Chart, Game, Pending, Seat, Targets};
use sandtable_core::hex::Hex;
use sandtable_core::render::{
    put_pieces, render_hex_base, render_hex_pieces, Counter, HexMark, LineKind, LineStyle, MapStyle, NatoSymbol,
    TagMark, TerrainStyle, TerrainSymbol,
};
use sandtable_core::text::{Lang, Text};
use serde_json::json;

impl StalingradBlitz {
    pub(crate) fn hex_id(&self, h: Hex) -> String {
        self.d.map.grid.id(h).0
    }

    /// A hex with its place name, if any: "1207 Voronezh".
    fn hex_text(&self, h: Hex) -> Text {
        let id = self.hex_id(h);
        match self.d.map.place(h) {
            Some(p) => Text::new(format!("{id} {}", p.name_en), format!("{id} {}", p.name_zh)),
            None => Text::new(id.clone(), id),
        }
    }

    fn unit_text(&self, u: UnitId) -> Text {
        if u == FORTRESS {
            return Text::new("the fortress", "要塞");
        }
        self.d.units[u as usize].label(self.s.units[u as usize].reduced).clone()
    }

    fn chit_text(&self, c: u8) -> Text {
        let c = &self.d.chits[c as usize];
        Text::new(c.name_en.clone(), c.name_zh.clone())
    }

    pub(crate) fn describe_action(&self, a: &Action) -> Text {
        match *a {
            Action::Pick { chit } => {
                let c = self.chit_text(chit);
                Text::new(format!("Put {} in the cup", c.en), format!("把{}放入杯中", c.zh))
            }
            Action::NoExtra => Text::new(
                "Neither SOVIET REINF nor STAVKA this turn",
                "本回合不选苏军增援或红军大本营",
            ),
            Action::First { chit: Some(c) } => {
                let c = self.chit_text(c);
                Text::new(
                    format!("Execute {} first, outside the cup (16.0(1))", c.en),
                    format!("不放入杯中,首先执行{}(16.0(1))", c.zh),
                )
            }
            Action::First { chit: None } => Text::new("Execute no chit before the draw", "不预先执行命令卡"),
            Action::Choose { unit } => {
                let u = self.unit_text(unit);
                Text::new(format!("Choose {}", u.en), format!("选择{}", u.zh))
            }
            Action::EndChoose => Text::new("Choose no more", "选择完毕"),
            Action::Move { unit, to, march, via } => {
                let (u, h) = (self.unit_text(unit), self.hex_text(to));
                let t = if march {
                    Text::new(
                        format!("March {} to {}", u.en, h.en),
                        format!("{}以行军队形移动到{}", u.zh, h.zh),
                    )
                } else {
                    Text::new(format!("Move {} to {}", u.en, h.en), format!("{}移动到{}", u.zh, h.zh))
                };
                if via.is_empty() {
                    t
                } else {
                    let ids: Vec<String> = via.as_slice().iter().map(|&h| self.hex_id(h)).collect();
                    let ids = ids.join(", ");
                    Text::new(format!("{} via {ids}", t.en), format!("{}(经{ids})", t.zh))
                }
            }
            Action::EndMovement => Text::new("End movement; go to combat", "结束移动,进入战斗"),
            Action::Declare { target, units } => {
                let h = self.hex_text(target);
                let b = crate::rules::Board::new(&self.d, &self.s);
                let o = b.odds(target, units.as_slice());
                let col = o
                    .column
                    .map(|c| self.d.crt.columns.label(c))
                    .unwrap_or_else(|| "-".into());
                let names: Vec<Text> = units.as_slice().iter().map(|&u| self.unit_text(u)).collect();
                let en: Vec<&str> = names.iter().map(|t| t.en.as_str()).collect();
                let zh: Vec<&str> = names.iter().map(|t| t.zh.as_str()).collect();
                // Where each number comes from, with its rule, so a player can check it.
                let raw = o.raw.map(|c| self.d.crt.columns.label(c)).unwrap_or_else(|| "-".into());
                let (halved_en, halved_zh) = if o.halved {
                    (" (across a river: halved, 10.3(1))", "(跨河攻击减半,10.3(1))")
                } else {
                    ("", "")
                };
                let fortress = self.s.fortresses.iter().any(|f| f.hex == target && f.level >= 2);
                let (fort_en, fort_zh) = if fortress {
                    (" (fortress +1, 14.2(1))", "(要塞+1,14.2(1))")
                } else {
                    ("", "")
                };
                let (shift_en, shift_zh) = if o.shifts > 0 {
                    (
                        format!(", terrain {} left (10.3(3))", o.shifts),
                        format!(",地形左移{}列(10.3(3))", o.shifts),
                    )
                } else {
                    (String::new(), String::new())
                };
                Text::new(
                    format!(
                        "Attack {} with {}: {}{halved_en} vs {}{fort_en} = {raw}{shift_en} → {col}",
                        h.en,
                        en.join(", "),
                        o.attack,
                        o.defence,
                    ),
                    format!(
                        "以{}攻击{}:{}{halved_zh}对{}{fort_zh}={raw}{shift_zh}→{col}",
                        zh.join("、"),
                        h.zh,
                        o.attack,
                        o.defence,
                    ),
                )
            }
            Action::Undeclare { target } => {
                let h = self.hex_text(target);
                Text::new(
                    format!("Take back the attack on {}", h.en),
                    format!("取消对{}的攻击", h.zh),
                )
            }
            Action::EndDeclare => Text::new("Declare no more attacks", "宣言结束"),
            Action::Resolve { target } => {
                let h = self.hex_text(target);
                Text::new(
                    format!("Resolve the attack on {}", h.en),
                    format!("结算对{}的攻击", h.zh),
                )
            }
            Action::Lose { unit } => {
                let u = self.unit_text(unit);
                Text::new(format!("{} takes a step loss", u.en), format!("{}损失一步", u.zh))
            }
            Action::Convert { yes: true } => Text::new(
                "Hold the fortress: take step losses instead of retreating (14.2(5))",
                "坚守要塞:以战力损失代替退却(14.2(5))",
            ),
            Action::Convert { yes: false } => Text::new("Retreat as the result says", "按结果退却"),
            Action::Retreat { unit, to } => {
                let (u, h) = (self.unit_text(unit), self.hex_text(to));
                Text::new(
                    format!("{} retreats to {}", u.en, h.en),
                    format!("{}退却到{}", u.zh, h.zh),
                )
            }
            Action::Advance { unit, to } => {
                let (u, h) = (self.unit_text(unit), self.hex_text(to));
                Text::new(
                    format!("{} advances to {}", u.en, h.en),
                    format!("{}挺进到{}", u.zh, h.zh),
                )
            }
            Action::EndAdvance => Text::new("Advance no more", "挺进结束"),
            Action::Place { unit, at } => {
                let (u, h) = (self.unit_text(unit), self.hex_text(at));
                Text::new(format!("Place {} at {}", u.en, h.en), format!("将{}放在{}", u.zh, h.zh))
            }
            Action::Fortify { hex } => {
                let h = self.hex_text(hex);
                Text::new(
                    format!("Build a fortress level at {}", h.en),
                    format!("在{}构筑要塞", h.zh),
                )
            }
            Action::NoFortress => Text::new("Build no fortress", "不构筑要塞"),
            Action::Draw { chit, .. } => {
                let c = self.chit_text(chit);
                Text::new(format!("Drawn: {}", c.en), format!("抽出:{}", c.zh))
            }
            Action::Die { face } => Text::new(format!("Die: {face}"), format!("骰子:{face}")),
        }
    }

    /// What each legal action is about on the board ([`Game::targets`]): the counters and
    /// hexes, how it is taken and the heading it is listed under, and for a move the movement
    /// points it costs (9.2, 9.3), from one search per unit and kind of movement.
    /// Before an attack is declared (10.2): the defenders and their hex, the terrain, river
    /// and fortress with their rules, the odds and the column, and the CRT's result for each
    /// die (10.4).
    pub(crate) fn preview_of(&self, a: &Action) -> Vec<Text> {
        let Action::Declare { target, ref units } = *a else {
            return Vec::new();
        };
        let b = crate::rules::Board::new(&self.d, &self.s);
        let d = &self.d;
        let h = self.hex_text(target);
        let mut out = Vec::new();
        let defenders: Vec<Text> = b.units_at(target).iter().map(|&u| self.unit_text(u)).collect();
        let level = self
            .s
            .fortresses
            .iter()
            .find(|f| f.hex == target)
            .map_or(0, |f| f.level);
        let (mut en, mut zh): (Vec<String>, Vec<String>) =
            defenders.iter().map(|t| (t.en.clone(), t.zh.clone())).unzip();
        if level > 0 {
            en.push(format!("a level-{level} fortress"));
            zh.push(format!("{level}级要塞"));
        }
        out.push(Text::new(
            format!("Defending {}: {}", h.en, en.join(", ")),
            format!("防守{}:{}", h.zh, zh.join("、")),
        ));
        let o = b.odds(target, units.as_slice());
        let label = |c: Option<usize>| c.map(|c| d.crt.columns.label(c)).unwrap_or_else(|| "-".into());
        let (mut why_en, mut why_zh) = (Vec::new(), Vec::new());
        if o.halved {
            why_en.push("attackers across a river halved (10.3(1))".to_string());
            why_zh.push("跨河攻击的单位减半(10.3(1))".to_string());
        }
        if level >= 2 {
            why_en.push("fortress +1 defence (14.2(1))".to_string());
            why_zh.push("要塞防御+1(14.2(1))".to_string());
        }
        if o.shifts > 0 {
            why_en.push(format!("terrain {} column(s) left (10.3(3))", o.shifts));
            why_zh.push(format!("地形左移{}列(10.3(3))", o.shifts));
        } else {
            why_en.push("open terrain, no shift (10.3(3))".to_string());
            why_zh.push("开阔地形,不移列(10.3(3))".to_string());
        }
        out.push(Text::new(
            format!(
                "{} against {} = {} → column {}: {}",
                o.attack,
                o.defence,
                label(o.raw),
                label(o.column),
                why_en.join("; ")
            ),
            format!(
                "{} 对 {} = {} → {} 栏:{}",
                o.attack,
                o.defence,
                label(o.raw),
                label(o.column),
                why_zh.join(";")
            ),
        ));
        match o.column {
            Some(col) => {
                let row: Vec<String> = (0..d.crt.rows.len() as i32)
                    .map(|k| {
                        let die = d.crt.die_min + k;
                        format!("{die}: {}", d.crt.result(col, die).label())
                    })
                    .collect();
                out.push(Text::new(
                    format!("CRT, die by die (10.4): {}", row.join(" · ")),
                    format!("战斗结果表逐骰(10.4):{}", row.join(" · ")),
                ));
            }
            None => out.push(Text::new(
                "Below 1-1: no attack (10.3(4))",
                "低于1比1,不能攻击(10.3(4))",
            )),
        }
        out
    }

    pub(crate) fn targets_of(&self, actions: &[Action]) -> Vec<Targets> {
        let b = crate::rules::Board::new(&self.d, &self.s);
        let mut costs: std::collections::HashMap<(UnitId, bool), Vec<Option<u32>>> = Default::default();
        let units = |list: &[UnitId]| -> Vec<String> { list.iter().map(|&u| self.uid(u).to_string()).collect() };
        let at = |unit: Option<UnitId>, hexes: &[Hex], kind: ActionKind| Targets {
            units: unit.map(|u| units(&[u])).unwrap_or_default(),
            hexes: hexes.iter().map(|&h| self.hex_id(h)).collect(),
            kind,
            ..Targets::default()
        };
        actions
            .iter()
            .map(|a| {
                let mut t = match *a {
                    Action::Move { unit, to, march, .. } => {
                        let cost = costs.entry((unit, march)).or_insert_with(|| {
                            sandtable_core::search::with_thread_search(|search| {
                                b.movement(unit, march, search);
                                (0..self.d.map.grid.len()).map(|i| search.cost(Hex(i as u16))).collect()
                            })
                        });
                        let note = cost.get(to.idx()).copied().flatten().map(sandtable_core::text::half_mp);
                        Targets {
                            note,
                            ..at(Some(unit), &[to], ActionKind::Move)
                        }
                    }
                    Action::Declare { target, ref units } => Targets {
                        units: units.as_slice().iter().map(|&u| self.uid(u).to_string()).collect(),
                        ..at(None, &[target], ActionKind::Attack)
                    },
                    Action::Undeclare { target } | Action::Resolve { target } => at(None, &[target], ActionKind::Other),
                    Action::Retreat { unit, to } | Action::Advance { unit, to } => {
                        at(Some(unit), &[to], ActionKind::Move)
                    }
                    // The unit placed is not on the board yet: only its hexes can be clicked.
                    Action::Place { at: to, .. } => at(None, &[to], ActionKind::Place),
                    Action::Choose { unit } => at(Some(unit), &[], ActionKind::Choose),
                    Action::Lose { unit } if unit != FORTRESS => at(Some(unit), &[], ActionKind::Choose),
                    Action::Fortify { hex } => at(None, &[hex], ActionKind::Place),
                    _ => Targets::default(),
                };
                t.group = group_of(a);
                t
            })
            .collect()
    }

    fn uid(&self, u: UnitId) -> &str {
        if u == FORTRESS {
            "fortress"
        } else {
            &self.d.units[u as usize].id
        }
    }

    pub(crate) fn notation_of(&self, a: &Action) -> String {
        match *a {
            Action::Pick { chit } => format!("pick {}", self.d.chits[chit as usize].id),
            Action::NoExtra => "no-extra".into(),
            Action::First { chit: Some(c) } => format!("first {}", self.d.chits[c as usize].id),
            Action::First { chit: None } => "first none".into(),
            Action::Choose { unit } => format!("choose {}", self.uid(unit)),
            Action::EndChoose => "done".into(),
            Action::Move { unit, to, march, via } => {
                let mut n = format!(
                    "{} {} {}",
                    if march { "march" } else { "move" },
                    self.uid(unit),
                    self.hex_id(to)
                );
                if !via.is_empty() {
                    n.push_str(" via");
                    for &h in via.as_slice() {
                        n.push(' ');
                        n.push_str(&self.hex_id(h));
                    }
                }
                n
            }
            Action::EndMovement => "end-move".into(),
            Action::Declare { target, units } => {
                let names: Vec<&str> = units.as_slice().iter().map(|&u| self.uid(u)).collect();
                format!("attack {} with {}", self.hex_id(target), names.join(" "))
            }
            Action::Undeclare { target } => format!("cancel {}", self.hex_id(target)),
            Action::EndDeclare => "end-declare".into(),
            Action::Resolve { target } => format!("resolve {}", self.hex_id(target)),
            Action::Lose { unit } => format!("lose {}", self.uid(unit)),
            Action::Convert { yes } => format!("convert {}", if yes { "yes" } else { "no" }),
            Action::Retreat { unit, to } => format!("retreat {} {}", self.uid(unit), self.hex_id(to)),
            Action::Advance { unit, to } => format!("advance {} {}", self.uid(unit), self.hex_id(to)),
            Action::EndAdvance => "end-advance".into(),
            Action::Place { unit, at } => format!("place {} {}", self.uid(unit), self.hex_id(at)),
            Action::Fortify { hex } => format!("fortify {}", self.hex_id(hex)),
            Action::NoFortress => "no-fortress".into(),
            Action::Draw { slot, chit } => {
                format!("draw {} {slot}", self.d.chits[chit as usize % self.d.chits.len()].id)
            }
            Action::Die { face } => format!("die {face}"),
        }
    }

    /// Reads the typed form of any action (legal now or not), as `notation_of` writes it.
    pub(crate) fn parse_typed(&self, text: &str) -> Option<Action> {
        let d = &self.d;
        let words: Vec<String> = text.split_whitespace().map(|w| w.to_string()).collect();
        let w: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
        let unit = |s: &str| -> Option<UnitId> {
            if s.eq_ignore_ascii_case("fortress") {
                return Some(FORTRESS);
            }
            d.unit_index.get(&s.to_ascii_lowercase()).copied()
        };
        let hex = |s: &str| d.map.grid.parse(s).ok();
        let chit = |s: &str| {
            d.chits
                .iter()
                .position(|c| c.id.eq_ignore_ascii_case(s))
                .map(|i| i as u8)
        };
        let verb = w.first()?.to_ascii_lowercase();
        Some(match (verb.as_str(), &w[1..]) {
            ("pick", [c]) => Action::Pick { chit: chit(c)? },
            ("no-extra", []) => Action::NoExtra,
            ("first", [c]) if c.eq_ignore_ascii_case("none") => Action::First { chit: None },
            ("first", [c]) => Action::First { chit: Some(chit(c)?) },
            ("choose", [u]) => Action::Choose { unit: unit(u)? },
            ("done", []) => Action::EndChoose,
            ("move" | "march", [u, h, rest @ ..]) => {
                let via = match rest {
                    [] => Route::default(),
                    [v, hexes @ ..] if v.eq_ignore_ascii_case("via") && !hexes.is_empty() => {
                        let hexes: Vec<Hex> = hexes.iter().map(|h| hex(h)).collect::<Option<_>>()?;
                        Route::from_slice(&hexes)?
                    }
                    _ => return None,
                };
                Action::Move {
                    unit: unit(u)?,
                    to: hex(h)?,
                    march: verb == "march",
                    via,
                }
            }
            ("end-move", []) => Action::EndMovement,
            ("attack", [h, with, rest @ ..]) if with.eq_ignore_ascii_case("with") && !rest.is_empty() => {
                let mut ids: Vec<UnitId> = rest.iter().map(|u| unit(u)).collect::<Option<_>>()?;
                if ids.len() > 12 {
                    return None;
                }
                ids.sort_unstable();
                Action::Declare {
                    target: hex(h)?,
                    units: UnitList::from_slice(&ids),
                }
            }
            ("cancel", [h]) => Action::Undeclare { target: hex(h)? },
            ("end-declare", []) => Action::EndDeclare,
            ("resolve", [h]) => Action::Resolve { target: hex(h)? },
            ("lose", [u]) => Action::Lose { unit: unit(u)? },
            ("convert", [y]) if y.eq_ignore_ascii_case("yes") => Action::Convert { yes: true },
            ("convert", [n]) if n.eq_ignore_ascii_case("no") => Action::Convert { yes: false },
            ("retreat", [u, h]) => Action::Retreat {
                unit: unit(u)?,
                to: hex(h)?,
            },
            ("advance", [u, h]) => Action::Advance {
                unit: unit(u)?,
                to: hex(h)?,
            },
            ("end-advance", []) => Action::EndAdvance,
            ("place", [u, h]) => Action::Place {
                unit: unit(u)?,
                at: hex(h)?,
            },
            ("fortify", [h]) => Action::Fortify { hex: hex(h)? },
            ("no-fortress", []) => Action::NoFortress,
            _ => return None,
        })
    }

    /// The phase and step in words.
    pub(crate) fn phase_text(&self) -> Text {
        let Some(top) = self.engine.top() else {
            return Text::new("Game over", "游戏结束");
        };
        match top {
            Frame::Turn => Text::new("End of the turn (15.0)", "回合结束(15.0)"),
            Frame::Roll(Roll::AxisReinf { .. }) => Text::new(
                "Axis reinforcements: the table's die (12.3)",
                "轴心国增援:增援表掷骰(12.3)",
            ),
            Frame::Roll(Roll::Withdrawal { .. }) => {
                Text::new("German withdrawal: the table's die (11.2)", "德军转出:转出表掷骰(11.2)")
            }
            Frame::Roll(Roll::Combat { .. }) => Text::new("Combat: the die (10.4)", "战斗:掷骰(10.4)"),
            Frame::SetUp => match crate::setup::next_setup_unit(&self.d, &self.s) {
                Some(u) => {
                    let t = self.unit_text(u);
                    let rule = crate::setup::setup_rule(crate::setup::setup_class(&self.d.units[u as usize]));
                    Text::new(
                        format!("Set-up: place {} ({rule})", t.en),
                        format!("初期配置:放置{}({rule})", t.zh),
                    )
                }
                None => Text::new("Set-up (4.0)", "初期配置(4.0)"),
            },
            Frame::Draw => Text::new("Command execution: drawing a chit (7.1)", "命令实行:抽取命令卡(7.1)"),
            Frame::Select(Select::SovietHq) => Text::new(
                "Command selection: Soviet Front chits (6.2(1))",
                "命令选择:苏军方面军命令卡(6.2(1))",
            ),
            Frame::Select(Select::SovietExtra) => Text::new(
                "Command selection: SOVIET REINF or STAVKA (6.2(2))",
                "命令选择:苏军增援或红军大本营(6.2(2))",
            ),
            Frame::Select(Select::AxisGer) => Text::new(
                "Command selection: German chits (6.2(3))",
                "命令选择:德军命令卡(6.2(3))",
            ),
            Frame::Select(Select::AxisRnf) => Text::new(
                "Command selection: allied and reinforcement chits (6.2(3))",
                "命令选择:同盟军及增援命令卡(6.2(3))",
            ),
            Frame::Select(Select::AxisFirst) => Text::new(
                "Turn 1: a chit to execute first (16.0(1))",
                "第1回合:首先执行的命令卡(16.0(1))",
            ),
            Frame::Exec(_) | Frame::Combat(_) => {
                let Some(e) = self.exec() else {
                    return Text::default();
                };
                let c = self.chit_text(e.chit);
                let step = match (&e.step, self.combat()) {
                    (_, Some(c)) => match c.stage {
                        CombatStage::AttackerLoss => {
                            Text::new("the attacker allocates step losses (10.5)", "攻击方分配战力损失(10.5)")
                        }
                        CombatStage::Convert => Text::new(
                            "the defender may hold the fortress (14.2(5))",
                            "防守方可坚守要塞(14.2(5))",
                        ),
                        CombatStage::DefenderLoss => {
                            Text::new("the defender allocates step losses (10.5)", "防守方分配战力损失(10.5)")
                        }
                        CombatStage::Retreat => Text::new("the defender retreats (10.6)", "防守方退却(10.6)"),
                        CombatStage::Advance => Text::new("advance after combat (10.7)", "战斗后挺进(10.7)"),
                    },
                    (Step::Stavka, _) => Text::new("choose the HQ to activate (7.2(3))", "选择要激活的司令部(7.2(3))"),
                    (Step::AlliedGerman { .. }, _) => Text::new(
                        "choose up to 2 German units to activate (8.3(2))",
                        "选择最多2个德军单位激活(8.3(2))",
                    ),
                    (Step::Move, _) => Text::new("movement segment (9.0)", "移动小节(9.0)"),
                    (Step::Declare, _) => Text::new(
                        "combat segment: declare attacks (10.2(1))",
                        "战斗小节:宣言攻击(10.2(1))",
                    ),
                    (Step::Order, _) => Text::new(
                        "combat segment: choose the next attack to resolve (10.2(1))",
                        "战斗小节:选择下一个结算的攻击(10.2(1))",
                    ),
                    (Step::AxisReinf(r), _) => reinforcements_left(r),
                    (Step::SovietReinf { hq_left }, _) => Text::new(
                        format!("Soviet reinforcements: choose the HQ that enters, {hq_left} still to choose (12.2)"),
                        format!("苏军增援:选择登场的司令部,还需选 {hq_left} 个(12.2)"),
                    ),
                    (Step::Place, _) => Text::new("place reinforcements by rail (12.1)", "通过铁道放置增援(12.1)"),
                    (Step::Supply(SupplyStage::Withdraw { .. }), _) => {
                        Text::new("German withdrawal (11.2)", "德军转出(11.2)")
                    }
                    (Step::Supply(SupplyStage::RailBox), _) => Text::new(
                        "move units to the rail transport box (11.3)",
                        "移动单位到铁道运输框(11.3)",
                    ),
                    (Step::Supply(SupplyStage::Fortress), _) => {
                        Text::new("Soviet fortress construction (11.4, 14.1)", "苏军要塞构筑(11.4, 14.1)")
                    }
                };
                Text::new(
                    format!("Executing {}: {}", c.en, step.en),
                    format!("执行{}:{}", c.zh, step.zh),
                )
            }
        }
    }

    /// The state as `seat` may see it: the other side's picks and the cup's contents never.
    pub(crate) fn view_for(&self, seat: Option<Seat>) -> serde_json::Value {
        let d = &self.d;
        let over = self.is_over();
        let units: Vec<serde_json::Value> = self
            .s
            .units
            .iter()
            .enumerate()
            .filter(|(_, st)| !matches!(st.loc, Loc::Pool | Loc::Eliminated | Loc::Withdrawn))
            .map(|(i, st)| {
                let def = &d.units[i];
                let loc = match st.loc {
                    Loc::Map(h) => json!(self.hex_id(h)),
                    Loc::RailBox => json!("rail-box"),
                    Loc::Track => json!("track"),
                    Loc::Arriving => json!("arriving"),
                    Loc::SetUp => json!("set-up"),
                    _ => json!(null),
                };
                json!({
                    "id": def.id, "name_en": def.name_en, "name_zh": def.name_zh, "label": def.name,
                    "side": def.side, "nation": def.nation, "type": def.utype,
                    "factors": def.face(st.reduced).label(def.mech), "reduced": st.reduced,
                    "loc": loc, "active": st.active, "moved": st.moved, "attacked": st.attacked,
                })
            })
            .collect();
        // 4.0(5), 12.0: the reserve force pool, whose units the reinforcement rules bring.
        let pool: Vec<serde_json::Value> = self
            .s
            .units
            .iter()
            .enumerate()
            .filter(|(_, s)| s.loc == Loc::Pool)
            .map(|(i, _)| {
                let def = &d.units[i];
                json!({"id": def.id, "name_en": def.name_en, "name_zh": def.name_zh, "factors": def.face(false).label(def.mech)})
            })
            .collect();
        let mine = |side: Side| -> serde_json::Value {
            if over || seat == Some(side.seat()) {
                json!(self.hidden.picks[side.seat() as usize]
                    .iter()
                    .map(|&c| d.chits[c as usize].id.clone())
                    .collect::<Vec<_>>())
            } else {
                json!(null)
            }
        };
        let control: Vec<serde_json::Value> = d
            .map
            .grid
            .hexes()
            .filter(|h| d.is_urban[h.idx()])
            .map(|h| json!({"hex": self.hex_id(h), "side": self.s.control[h.idx()]}))
            .collect();
        let pending = match self.pending() {
            Pending::Seat(s) => json!(if s == 0 { "axis" } else { "soviet" }),
            Pending::Chance => json!("chance"),
            Pending::Over => json!(null),
        };
        let td = self.turn_def();
        json!({
            "game": "stalingrad-blitz",
            "scenario": self.meta.id,
            "reconstructed": self.meta.reconstructed,
            "turn": self.s.turn,
            "date_en": td.date_en, "date_zh": td.date_zh,
            "quotas": {"su_com": td.su_com, "ger_com": td.ger_com, "axis_rnf_com": td.axis_rnf_com},
            "phase_en": self.phase_text().en, "phase_zh": self.phase_text().zh,
            "pending": pending,
            "vp": self.s.vp, "loss_vp": self.s.loss_vp, "track": self.s.track,
            // 6.2(2): the Soviet extra chit is not counted until it is drawn.
            "cup_size": self.cup_known().0,
            "cup_maybe_extra": self.cup_known().1,
            "used": self.s.used.iter().map(|&c| d.chits[c as usize].id.clone()).collect::<Vec<_>>(),
            "picks": {"axis": mine(Side::Axis), "soviet": mine(Side::Soviet)},
            "units": units,
            "pool": pool,
            "fortresses": self.s.fortresses.iter().map(|f| json!({"hex": self.hex_id(f.hex), "level": f.level})).collect::<Vec<_>>(),
            "control": control,
            "winner": self.s.winner,
        })
    }

    pub(crate) fn summary_for(&self, seat: Option<Seat>, lang: Lang) -> String {
        let d = &self.d;
        let td = self.turn_def();
        let zh = lang == Lang::Zh;
        let mut out = String::new();
        let title = &self.meta.name;
        out.push_str(&format!("{}\n", title.get(lang)));
        if zh {
            out.push_str(&format!(
                "第{}回合({}),{}\n",
                self.s.turn,
                td.date_zh,
                self.phase_text().zh
            ));
        } else {
            out.push_str(&format!(
                "Turn {} ({}), {}\n",
                self.s.turn,
                td.date_en,
                self.phase_text().en
            ));
        }
        let who = match self.pending() {
            Pending::Seat(s) => Side::from_seat(s).name().get(lang).to_string(),
            Pending::Chance => (if zh { "抽取" } else { "chance" }).to_string(),
            Pending::Over => (if zh { "无" } else { "nobody" }).to_string(),
        };
        let held = d
            .vp_hexes
            .iter()
            .filter(|h| self.s.control[h.idx()] == Some(Side::Axis))
            .count();
        let setup = matches!(self.engine.top(), Some(Frame::SetUp));
        if zh {
            if setup {
                out.push_str(&format!(
                    "轮到:{who},第1回合前布置(4.0)。轴心国控制 VP 格 {held}/{}(胜利需85 VP)。\n",
                    d.vp_hexes.len()
                ));
            } else {
                out.push_str(&format!(
                    "轮到:{who}。轴心国控制 VP 格 {held}/{},损失 {} VP,上回合结束时 {} VP(胜利需85)。\n",
                    d.vp_hexes.len(),
                    self.s.loss_vp,
                    self.s.vp
                ));
            }
            out.push_str(&format!(
                "杯中命令卡 {};苏军增援标记 {};本回合命令卡数:苏军 {} / 德军 {} / 轴心国同盟军与增援 {}。\n",
                self.cup_text().zh,
                self.s.track,
                td.su_com,
                td.ger_com,
                td.axis_rnf_com
            ));
        } else {
            if setup {
                out.push_str(&format!(
                    "To act: {who}, setting up before turn 1 (4.0). The Axis holds {held}/{} VP hexes (85 VP wins).\n",
                    d.vp_hexes.len()
                ));
            } else {
                out.push_str(&format!("To act: {who}. The Axis holds {held}/{} VP hexes, has lost {} VP, and had {} VP at the last turn end (85 wins).\n", d.vp_hexes.len(), self.s.loss_vp, self.s.vp));
            }
            out.push_str(&format!("Chits in the cup: {}; Soviet reinforcement marker at {}; quotas this turn SU {} / GER {} / Axis-Rnf {}.\n", self.cup_text().en, self.s.track, td.su_com, td.ger_com, td.axis_rnf_com));
        }
        if let Some(s) = seat {
            let picks: Vec<String> = self.hidden.picks[s as usize]
                .iter()
                .map(|&c| self.chit_text(c).get(lang).to_string())
                .collect();
            if !picks.is_empty() {
                out.push_str(&format!(
                    "{}{}\n",
                    if zh { "你的命令卡:" } else { "Your chits: " },
                    picks.join(", ")
                ));
            }
        }
        if !self.s.used.is_empty() {
            let used: Vec<String> = self
                .s
                .used
                .iter()
                .map(|&c| self.chit_text(c).get(lang).to_string())
                .collect();
            out.push_str(&format!(
                "{}{}\n",
                if zh { "已执行:" } else { "Executed: " },
                used.join(", ")
            ));
        }
        if let Some(e) = self.exec() {
            let active: Vec<String> = self
                .s
                .units
                .iter()
                .enumerate()
                .filter(|(_, s)| s.active)
                .map(|(i, s)| {
                    let t = self.unit_text(i as UnitId);
                    let at = s.hex().map(|h| self.hex_id(h)).unwrap_or_default();
                    let mark = if s.moved { "*" } else { "" };
                    format!("{}@{at}{mark}", t.get(lang))
                })
                .collect();
            if !active.is_empty() {
                out.push_str(&format!(
                    "{}{}\n",
                    if zh {
                        "激活单位(*已移动):"
                    } else {
                        "Activated (* moved): "
                    },
                    active.join("; ")
                ));
            }
            for a in &e.declared {
                let t = self.describe_action(&Action::Declare {
                    target: a.target,
                    units: a.units,
                });
                out.push_str(&format!(
                    "  {} {}\n",
                    if zh { "已宣言:" } else { "declared:" },
                    t.get(lang)
                ));
            }
            if let Some(c) = self.combat() {
                let h = self.hex_text(c.target);
                out.push_str(&format!(
                    "{} {}: {} {}, {} {}\n",
                    if zh { "战斗" } else { "Combat at" },
                    h.get(lang),
                    self.d.crt.columns.label(c.column as usize),
                    if zh { "骰" } else { "die" },
                    c.die,
                    crate::data::CrtResult {
                        attacker_steps: c.attacker_steps,
                        defender_steps: c.defender_steps,
                        retreat: c.retreat
                    }
                    .label()
                ));
            }
        }
        if let Some(o) = self.outcome_now() {
            out.push_str(o.text.get(lang));
            out.push('\n');
        }
        out
    }

    /// The board around a hex as text, for the terminal: every stack within `radius`.
    pub fn listing_around(&self, centre: Hex, radius: u32, lang: Lang) -> String {
        self.listing(|h| self.d.map.grid.distance(centre, h) <= radius, &[], lang)
    }

    /// The board as text: every stack and named place in the hexes `keep` accepts, and every
    /// hex of `marked`, with a `+` after its number.
    fn listing(&self, keep: impl Fn(Hex) -> bool, marked: &[Hex], lang: Lang) -> String {
        let d = &self.d;
        let mut lines = Vec::new();
        for h in d.map.grid.hexes() {
            let mark = marked.contains(&h);
            if !keep(h) && !mark {
                continue;
            }
            let here: Vec<String> = self
                .s
                .units
                .iter()
                .enumerate()
                .filter(|(_, s)| s.hex() == Some(h))
                .map(|(i, _)| {
                    let side = if d.units[i].side == Side::Axis { "A" } else { "S" };
                    format!("{side}:{}", self.unit_text(i as UnitId).get(lang))
                })
                .collect();
            if here.is_empty() && d.map.place(h).is_none() && !mark {
                continue;
            }
            let mut terrain: Vec<&str> = d
                .map
                .terrain_names()
                .iter()
                .enumerate()
                .filter(|(b, _)| d.map.terrain(h) & (1 << b) != 0)
                .map(|(_, n)| n.as_str())
                .collect();
            terrain.retain(|t| *t != "plain");
            let ctl = match self.s.control[h.idx()] {
                Some(Side::Axis) => "[A]",
                Some(Side::Soviet) => "[S]",
                None => "",
            };
            lines.push(format!(
                "{}{} {}{} {} {}",
                self.hex_id(h),
                if mark { "+" } else { "" },
                self.hex_text(h).get(lang).split_once(' ').map(|x| x.1).unwrap_or(""),
                ctl,
                terrain.join("+"),
                here.join(", ")
            ));
        }
        lines.sort();
        lines.join("\n")
    }

    /// The NATO symbol of a unit, for drawing.
    fn nato(&self, u: UnitId) -> NatoSymbol {
        match self.d.units[u as usize].utype {
            UType::Hq => NatoSymbol::Headquarters,
            UType::Pz | UType::Armor | UType::Tk => NatoSymbol::Armor,
            UType::Mot | UType::Gd | UType::Ss | UType::Mech | UType::GMech | UType::NkvdMot => NatoSymbol::Mechanized,
            UType::Cav | UType::GCav => NatoSymbol::Cavalry,
            UType::Mt => NatoSymbol::Mountain,
            _ => NatoSymbol::Infantry,
        }
    }

    /// The whole board: the map with the turn in its title, and the pieces.
    pub(crate) fn render(&self, seat: Option<Seat>, lang: Lang) -> String {
        let base = render_hex_base(&self.d.map, &map_style(), &[], lang, &self.map_title(lang, true));
        put_pieces(&base, &self.draw_pieces(seat, lang))
    }

    /// The map alone, the same all game long (its title names the scenario, not the turn).
    pub(crate) fn draw_map(&self, lang: Lang) -> String {
        render_hex_base(&self.d.map, &map_style(), &[], lang, &self.map_title(lang, false))
    }

    /// The map's title: the scenario, the turn and its date if `with_turn`, and whether the
    /// map and counters are reconstructed.
    fn map_title(&self, lang: Lang, with_turn: bool) -> String {
        let td = self.turn_def();
        match lang {
            Lang::Zh => format!(
                "{}{}{}",
                self.meta.name.zh,
                if with_turn {
                    format!(" — 第{}回合({})", self.s.turn, td.date_zh)
                } else {
                    String::new()
                },
                if self.meta.reconstructed {
                    "· 地图与算子为重建数据"
                } else {
                    ""
                }
            ),
            Lang::En => format!(
                "{}{}{}",
                self.meta.name.en,
                if with_turn {
                    format!(" — turn {} ({})", self.s.turn, td.date_en)
                } else {
                    String::new()
                },
                if self.meta.reconstructed {
                    " · map and counters reconstructed"
                } else {
                    ""
                }
            ),
        }
    }

    /// What changes on the map: every unit (nothing on the map is hidden in this game), the
    /// fortresses, the control of the cities, and the hexes the current step is about.
    pub(crate) fn draw_pieces(&self, _seat: Option<Seat>, lang: Lang) -> String {
        let d = &self.d;
        // In each hex the units in their order, then the fortress (the stacks keep this order).
        let mut counters = Vec::new();
        for (i, st) in self.s.units.iter().enumerate() {
            let Some(h) = st.hex() else { continue };
            let def = &d.units[i];
            let (fill, ink) = match def.nation {
                Nation::German => ("#8a9a8c", "#111"),
                Nation::Hungarian => ("#9c8f5a", "#111"),
                Nation::Romanian => ("#b9a76a", "#111"),
                Nation::Italian => ("#7f9f6f", "#111"),
                Nation::Soviet => ("#b5443b", "#fff"),
            };
            let fill = if def.utype == UType::Ss { "#4a4a4a" } else { fill };
            let ink = if def.utype == UType::Ss { "#fff" } else { ink };
            let name = match lang {
                Lang::Zh => def.name.clone(),
                Lang::En => def.name.clone(),
            };
            counters.push(Counter {
                hex: h,
                fill: fill.into(),
                ink: ink.into(),
                name,
                symbol: self.nato(i as UnitId),
                factors: def.face(st.reduced).label(def.mech),
                reduced: st.reduced,
                title: def.label(st.reduced).get(lang).to_string(),
                id: def.id.clone(),
            });
        }
        for f in &self.s.fortresses {
            let h = f.hex;
            counters.push(Counter {
                hex: h,
                fill: "#d9c9a3".into(),
                ink: "#111".into(),
                name: if lang == Lang::Zh {
                    "要塞".into()
                } else {
                    "Fort".into()
                },
                symbol: NatoSymbol::Fortress,
                factors: format!("L{}", f.level),
                reduced: f.level < 2,
                title: match lang {
                    Lang::Zh => format!("{}级要塞", f.level),
                    Lang::En => format!("fortress level {}", f.level),
                },
                id: format!("fortress-{}", self.hex_id(h)),
            });
        }
        let mut marks = Vec::new();
        for h in d.map.grid.hexes() {
            if d.is_urban[h.idx()] {
                let fill = match self.s.control[h.idx()] {
                    Some(Side::Axis) => "rgba(60,60,60,0.18)",
                    _ => "rgba(181,68,59,0.15)",
                };
                marks.push(HexMark {
                    hex: h,
                    fill: fill.into(),
                    label: String::new(),
                    note: String::new(),
                });
            }
        }
        // 4.0: the hexes the unit being set up may take.
        for h in self.set_up_hexes() {
            marks.push(HexMark {
                hex: h,
                fill: "rgba(80,160,80,0.35)".into(),
                label: String::new(),
                note: String::new(),
            });
        }
        if let Some(e) = self.exec() {
            if let Some(c) = self.combat() {
                marks.push(HexMark {
                    hex: c.target,
                    fill: "rgba(255,200,0,0.45)".into(),
                    label: String::new(),
                    note: String::new(),
                });
            }
            for a in &e.declared {
                marks.push(HexMark {
                    hex: a.target,
                    fill: "rgba(255,140,0,0.35)".into(),
                    label: "!".into(),
                    note: String::new(),
                });
            }
        }
        render_hex_pieces(&d.map, &[], &counters, &marks)
    }

    /// In the set-up, the hexes offered to the unit being set up (4.0).
    fn set_up_hexes(&self) -> Vec<Hex> {
        if !matches!(self.engine.top(), Some(Frame::SetUp)) {
            return Vec::new();
        }
        self.legal_list()
            .iter()
            .filter_map(|a| match *a {
                Action::Place { at, .. } => Some(at),
                _ => None,
            })
            .collect()
    }

    /// The stacks near the current action, as text for a terminal.
    pub(crate) fn board_text_for(&self, lang: Lang) -> String {
        if matches!(self.engine.top(), Some(Frame::SetUp)) {
            // 4.0: the hexes the unit being set up may take, and what stands next to them.
            let offered = self.set_up_hexes();
            let g = &self.d.map.grid;
            let list = self.listing(|h| offered.iter().any(|&o| g.distance(o, h) <= 1), &offered, lang);
            let head = match lang {
                Lang::Zh => "标 + 的格可放置当前单位(4.0):",
                Lang::En => "Hexes marked + may take the unit being set up (4.0):",
            };
            return format!("{head}\n{list}");
        }
        let centre = match (self.exec(), self.combat()) {
            (_, Some(c)) => Some((c.target, 2)),
            (Some(e), None) => {
                e.hq.and_then(|hq| self.s.units[hq as usize].hex())
                    .map(|h| (h, self.d.units[e.hq.unwrap_or(0) as usize].range as u32 + 2))
            }
            (None, None) => None,
        };
        match centre {
            Some((h, r)) => self.listing_around(h, r, lang),
            None => String::new(),
        }
    }
}

impl StalingradBlitz {
    /// The charts beside the board, from the game's data (issue 11): how a turn goes, the CRT,
    /// the terrain effects chart, the turn track, the map legend and a glossary.
    pub(crate) fn charts_of(&self) -> Vec<Chart> {
        let d = &self.d;
        let t = |en: &str, zh: &str| Text::new(en, zh);
        let same = |s: String| Text::new(s.clone(), s);
        let play = Chart {
            id: "play".into(),
            title: t("How this game plays", "本游戏怎么玩"),
            note: Text::new(
                format!("A turn, phase by phase (5.0). The game ends after turn {}, or when the Axis holds 85 VP at a turn's end (15.0). The rulebook has no map, no counter sheet and no chit quotas per turn: Sandtable reconstructs them, each with its basis (reconstructed data).", d.turns.len()),
                format!("一个回合的各个阶段(5.0)。第 {} 回合结束时游戏结束;任一回合结束时轴心国达到 85 VP 即获胜(15.0)。规则书没有地图、算子表和每回合的命令卡数:沙盘按各自的依据重建了它们(重建数据)。", d.turns.len()),
            ),
            head: vec![t("Phase", "阶段"), t("Rule", "规则"), t("What it asks of you", "你要做什么")],
            rows: vec![
                vec![t("Command selection", "命令选择"), same("6.0".into()), t(
                    "Both sides secretly put chits in the cup: the Soviet its turn's quota of Front chits, and SOVIET REINF or STAVKA if it likes; the Axis its German chits and its allied and reinforcement chits. The SUPPLY chit always goes in.",
                    "双方秘密地把命令卡放入杯中:苏军放入本回合数量的方面军命令卡,可再放苏军增援或红军大本营之一;轴心国放入德军命令卡和同盟军/增援命令卡。补给命令卡总在杯中。")],
                vec![t("Command execution", "命令实行"), same("7.0".into()), t(
                    "A chit is drawn; its owner carries it out: an HQ is activated, STAVKA activates any Soviet HQ, a reinforcement chit brings units (12.0), SUPPLY runs the supply procedure for both sides (11.0).",
                    "从杯中抽出一枚命令卡,由其所有者执行:司令部被激活;红军大本营可激活任一苏军司令部;增援命令卡带来增援(12.0);补给命令卡令双方执行补给顺序(11.0)。")],
                vec![t("Activation", "激活"), same("8.0".into()), t(
                    "The HQ activates every eligible friendly unit within its command range (the page marks them).",
                    "该司令部激活其指挥范围内所有符合条件的己方单位(页面会标出)。")],
                vec![t("Movement", "移动"), same("9.0".into()), t(
                    "Move activated units: click a counter, then a lit hex (its cost in MP shows on it).",
                    "移动被激活的单位:点击算子,再点击亮起的格子(格上标出移动力消耗)。")],
                vec![t("Combat", "战斗"), same("10.0".into()), t(
                    "Declare attacks with activated units next to the enemy, then resolve them one by one: one die on the CRT, losses, retreat, advance.",
                    "用与敌相邻的被激活单位宣言攻击,再逐个结算:掷一骰查战斗结果表,然后损失、退却、挺进。")],
                vec![t("Next chit", "下一枚命令卡"), same("7.1".into()), t(
                    "Execution, activation, movement and combat repeat until the cup is empty.",
                    "重复命令实行、激活、移动和战斗,直到杯中没有命令卡。")],
                vec![t("End of turn", "回合结束"), same("15.0".into()), t(
                    "Victory is checked and the turn marker advances.",
                    "判定胜负,回合标记前进一格。")],
            ],
            swatches: Vec::new(),
        };
        let cols: Vec<String> = (0..d.crt.columns.len()).map(|c| d.crt.columns.label(c)).collect();
        let crt = Chart {
            id: "crt".into(),
            title: t("Combat results table", "战斗结果表"),
            note: t(
                "One die (10.4). The column: attack against defence, shifted left by the defender's terrain (10.3(3)); below 1-1 no attack (10.3(4)).",
                "掷一骰(10.4)。栏:攻击力对防御力,按防御方地形左移(10.3(3));低于1比1不能攻击(10.3(4))。",
            ),
            head: std::iter::once(t("Die", "骰"))
                .chain(cols.iter().map(|c| same(c.clone())))
                .collect(),
            rows: (0..d.crt.rows.len() as i32)
                .map(|k| {
                    let die = d.crt.die_min + k;
                    std::iter::once(same(die.to_string()))
                        .chain((0..cols.len()).map(|c| same(d.crt.result(c, die).label())))
                        .collect()
                })
                .collect(),
            swatches: Vec::new(),
        };
        let terrains = [
            ("plain", "Plain", "平地"),
            ("forest", "Forest", "森林"),
            ("swamp", "Swamp", "湿地"),
            ("mountain", "Mountain", "山地"),
            ("town", "Town (adds to the terrain)", "镇(与地形相加)"),
            ("city", "Large city", "大城市"),
        ];
        let mp = |n: u8| {
            if n == 0 {
                t("closed (road only)", "禁止(仅沿道路)")
            } else {
                same(n.to_string())
            }
        };
        let c = &d.costs;
        let mut tec_rows: Vec<Vec<Text>> = terrains
            .iter()
            .map(|&(id, en, zh)| {
                let r = d.tec(id);
                vec![
                    t(en, zh),
                    mp(r.mp_mech),
                    mp(r.mp_foot),
                    same(r.shift.to_string()),
                    same(r.advance.to_string()),
                ]
            })
            .collect();
        let dash = || same("—".into());
        tec_rows.push(vec![
            t("River hexside", "河流格边"),
            same(format!("+{}", c.river_mp)),
            same(format!("+{}", c.river_mp)),
            t("attack halved (10.3(1))", "攻击减半(10.3(1))"),
            dash(),
        ]);
        tec_rows.push(vec![
            t("Road", "道路"),
            same(c.road_mp.to_string()),
            same(c.road_mp.to_string()),
            dash(),
            dash(),
        ]);
        tec_rows.push(vec![
            t("Road in march formation (9.3)", "行军队形沿道路(9.3)"),
            same(format!("{}/2", c.march_half_mp)),
            same(format!("{}/2", c.march_half_mp)),
            dash(),
            dash(),
        ]);
        tec_rows.push(vec![
            t("Entering / leaving enemy ZOC", "进入/离开敌 ZOC"),
            same(format!("+{} / +{}", c.zoc_enter_mp, c.zoc_leave_mp)),
            same(format!("+{} / +{}", c.zoc_enter_mp, c.zoc_leave_mp)),
            dash(),
            dash(),
        ]);
        let tec = Chart {
            id: "tec".into(),
            title: t("Terrain effects chart", "地形效果表"),
            note: t("Movement points to enter (9.2), columns the defender shifts left (10.3(3)), hexes an advance may go (10.7).", "进入所需移动力(9.2)、防御方左移的栏数(10.3(3))、战后挺进的最多格数(10.7)。"),
            head: vec![t("Terrain", "地形"), t("MP, motorised", "移动力(机械化)"), t("MP, foot", "移动力(徒步)"), t("Combat: columns left", "战斗:左移栏数"), t("Advance", "挺进")],
            rows: tec_rows,
            swatches: Vec::new(),
        };
        let turns = Chart {
            id: "turns".into(),
            title: t("Turn track", "回合表"),
            note: t(
                "Chits each side puts in the cup each turn (6.2). Reinforcements come by their chits, not by turn (12.0): the Soviet reinforcement track and the Axis reinforcement table follow this chart.",
                "每回合双方放入杯中的命令卡数(6.2)。增援随增援命令卡到来,不按回合(12.0):见本表之后的苏军增援表和轴心国增援表。",
            ),
            head: vec![
                t("Turn", "回合"),
                t("Date", "日期"),
                t("Soviet Front chits", "苏军方面军命令卡"),
                t("German chits", "德军命令卡"),
                t("Axis allied and reinforcement chits", "轴心国同盟军与增援命令卡"),
            ],
            rows: d
                .turns
                .iter()
                .map(|td| {
                    vec![
                        same(td.number.to_string()),
                        Text::new(td.date_en.clone(), td.date_zh.clone()),
                        same(td.su_com.to_string()),
                        same(td.ger_com.to_string()),
                        same(td.axis_rnf_com.to_string()),
                    ]
                })
                .collect(),
            swatches: Vec::new(),
        };
        // 12.2: the Soviet reinforcement track, one row per reinforcement number (the count of
        // SOVIET REINF executions, not the turn), one column per type, as tables.toml holds it.
        let soviet_reinf = Chart {
            id: "soviet-reinf".into(),
            title: t("Soviet reinforcement track", "苏军增援表"),
            note: t(
                "When SOVIET REINF is executed the Soviet player takes the column of the current reinforcement number from the pool, then the marker advances one box; if SOVIET REINF is not executed it stays (12.2). A type the pool lacks is lost (12.2(2)).",
                "执行苏军增援命令卡时,苏军按当前增援编号那一栏从预备队中取出单位,然后编号标记前进一格;未执行则不动(12.2)。预备队中缺少的类型即失去(12.2(2))。",
            ),
            head: std::iter::once(t("Reinforcement number", "增援编号"))
                .chain(d.soviet_track.iter().map(|(class, _)| {
                    let n = class.name();
                    let mut en = n.en.chars();
                    let cap = en.next().map(|c| c.to_uppercase().chain(en).collect::<String>()).unwrap_or_default();
                    Text::new(cap, n.zh)
                }))
                .collect(),
            rows: (0..d.soviet_track.first().map_or(0, |(_, row)| row.len()))
                .map(|i| {
                    std::iter::once(same((i + 1).to_string()))
                        .chain(d.soviet_track.iter().map(|(_, row)| {
                            let n = row.get(i).copied().unwrap_or(0);
                            same(if n == 0 { "-".into() } else { n.to_string() })
                        }))
                        .collect()
                })
                .collect(),
            swatches: Vec::new(),
        };
        // 12.3: the Axis reinforcement table, one row per face of the die, divisions by type.
        let axis_reinf = Chart {
            id: "axis-reinf".into(),
            title: t("Axis reinforcement table", "轴心国增援表"),
            note: t(
                "When AXIS REINF is executed the Axis player rolls a die and takes that row's divisions from the pool, of each type as he chooses (12.3); a type the pool lacks is lost. Then up to 2 units from the rail transport box may enter too, reduced ones reduced (12.4).",
                "执行轴心国增援命令卡时,轴心国掷一个骰子,按该行从预备队中自选各类型的师(12.3);预备队中缺少的类型即失去。此外铁道运输框中最多 2 个单位也可进入,已减员的以减员状态进入(12.4)。",
            ),
            head: vec![
                t("Die", "骰子"),
                t("German panzer", "德军装甲师"),
                t("SS", "党卫军师"),
                t("German infantry", "德军步兵师"),
                t("Hungarian", "匈牙利师"),
                t("Romanian", "罗马尼亚师"),
                t("Italian", "意大利师"),
            ],
            rows: d
                .axis_reinf
                .iter()
                .enumerate()
                .map(|(die, row)| {
                    std::iter::once(same((die + 1).to_string()))
                        .chain(row.iter().map(|&n| same(if n == 0 { "-".into() } else { n.to_string() })))
                        .collect()
                })
                .collect(),
            swatches: Vec::new(),
        };
        let style = map_style();
        let terrain_name = |name: &str| match name {
            "plain" => t("Plain", "平地"),
            "forest" => t("Forest", "森林"),
            "swamp" => t("Swamp", "湿地"),
            "mountain" => t("Mountain", "山地"),
            "impassable" => t("Impassable", "不可通行"),
            "sea" => t("Sea", "海"),
            other => same(other.to_string()),
        };
        let line_names = |f: &str| match f {
            "river" => ("River", "河流"),
            "major-river" => ("Major river", "大河"),
            "start-line" => ("Front line of 28 June 1942", "1942年6月28日战线"),
            "road" => ("Road", "道路"),
            "railway" => ("Railway", "铁路"),
            _ => ("", ""),
        };
        let mut legend_rows = Vec::new();
        let mut swatches = Vec::new();
        for ts in &style.terrains {
            legend_rows.push(vec![terrain_name(&ts.terrain), t("terrain", "地形")]);
            swatches.push(ts.fill.clone());
        }
        for ls in &style.lines {
            let (en, zh) = line_names(&ls.feature);
            legend_rows.push(vec![t(en, zh), t("line", "线")]);
            swatches.push(ls.stroke.clone());
        }
        for (en, zh, what_en, what_zh, colour) in [
            ("■ / ●", "■ / ●", "large city / town", "大城市 / 镇", "#222"),
            ("★", "★", "VP hex (15.0)", "VP 格(15.0)", "#c0392b"),
            (
                "Fort L1 / L2",
                "要塞 L1 / L2",
                "Soviet fortress and its level (14.0)",
                "苏军要塞及其等级(14.0)",
                "#d9c9a3",
            ),
            (
                "②",
                "②",
                "pieces in a stack: tap it for the list",
                "堆叠中的算子数:点按可列出",
                "#fff",
            ),
            (
                "!",
                "!",
                "attack declared on this hex (10.2)",
                "已宣言攻击的格(10.2)",
                "rgba(255,140,0,0.6)",
            ),
        ] {
            legend_rows.push(vec![t(en, zh), t(what_en, what_zh)]);
            swatches.push(colour.to_string());
        }
        let legend = Chart {
            id: "legend".into(),
            title: t("Map legend", "地图图例"),
            note: t(
                "The map is reconstructed: the rulebook has none (see the scenario's note).",
                "地图为重建数据:规则书没有地图(见剧本说明)。",
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
                    t("the attacker loses 1 or 2 steps (10.5)", "攻击方损失1或2个战力(10.5)"),
                ],
                vec![
                    same("R, RR".into()),
                    t("the defender retreats 1 or 2 hexes (10.6)", "防守方退却1或2格(10.6)"),
                ],
                vec![
                    same("1R, 1RR, 2RR".into()),
                    t(
                        "the defender loses that many steps and retreats 1 or 2 hexes",
                        "防守方损失相应战力并退却1或2格",
                    ),
                ],
                vec![same("-".into()), t("no effect", "无效果")],
                vec![
                    t("3-5, 5-4-8", "3-5, 5-4-8"),
                    t(
                        "attack–movement, or attack–defence–movement for motorised units; a striped counter is reduced",
                        "攻击力-移动力,机械化单位为攻击力-防御力-移动力;带斜纹的算子为减员面",
                    ),
                ],
                vec![same("MP".into()), t("movement points (9.0)", "移动力(9.0)")],
                vec![
                    same("ZOC".into()),
                    t(
                        "zone of control: the six hexes around a combat unit (3.1)",
                        "控制区:作战单位周围的六格(3.1)",
                    ),
                ],
                vec![same("VP".into()), t("victory points (15.0)", "胜利点(15.0)")],
                vec![
                    same("LOC".into()),
                    t(
                        "line of communication, checked in the supply procedure (11.0)",
                        "连络线,在补给顺序中检查(11.0)",
                    ),
                ],
                vec![
                    t("chit", "命令卡"),
                    t(
                        "a command chit, drawn from the cup (6.0, 7.0)",
                        "命令卡,从杯中抽取(6.0, 7.0)",
                    ),
                ],
            ],
            swatches: Vec::new(),
        };
        vec![play, crt, tec, turns, soviet_reinf, axis_reinf, legend, glossary]
    }
}

/// Colours and line styles of the map.
fn map_style() -> MapStyle {
    let t = TerrainStyle::new;
    let l = LineStyle::new;
    MapStyle {
        terrains: vec![
            t("plain", "#eee8c8", None),
            t("forest", "#a9c98f", Some(TerrainSymbol::Trees)),
            t("swamp", "#bcd8cf", Some(TerrainSymbol::Marsh)),
            t("mountain", "#c8a982", Some(TerrainSymbol::Peaks)),
            t("impassable", "#8c7b6b", Some(TerrainSymbol::Cross)),
            t("sea", "#9cc3e0", None),
        ],
        lines: vec![
            l("river", "#3f7fbf", 2.5, None, LineKind::Hexside),
            l("major-river", "#245f9e", 5.0, None, LineKind::Hexside),
            l("start-line", "#c0392b", 3.0, Some("8 5"), LineKind::Hexside),
            l("road", "#8b5a2b", 2.0, None, LineKind::Path),
            l("railway", "#222", 2.0, None, LineKind::Railway),
        ],
        city_terrain: Some("city".into()),
        town_terrain: Some("town".into()),
        tag_marks: vec![("vp".into(), TagMark::Star)],
    }
}

/// The Axis reinforcements still to choose, by the types the table called for (12.3), then
/// from the rail transport box (12.4).
fn reinforcements_left(r: &crate::state::AxisReinf) -> Text {
    const TYPES: [(&str, &str); 6] = [
        ("German panzer", "德军装甲"),
        ("SS", "党卫军"),
        ("German infantry", "德军步兵"),
        ("Hungarian", "匈牙利"),
        ("Romanian", "罗马尼亚"),
        ("Italian", "意大利"),
    ];
    let (mut en, mut zh): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for (t, &(e, z)) in TYPES.iter().enumerate() {
        let n = r.left[t];
        if n > 0 {
            en.push(format!("{n} {e} division{}", if n == 1 { "" } else { "s" }));
            zh.push(format!("{n} 个{z}师"));
        }
    }
    let box_en = format!("up to {} from the rail transport box (12.4)", r.from_box);
    let box_zh = format!("最多 {} 个铁道运输框中的单位(12.4)", r.from_box);
    match (en.is_empty(), r.from_box > 0) {
        (false, true) => Text::new(
            format!("Axis reinforcements: choose {} (12.3), then {box_en}", en.join(", ")),
            format!("轴心国增援:还需选择{}(12.3),然后{box_zh}", zh.join("、")),
        ),
        (false, false) => Text::new(
            format!("Axis reinforcements: choose {} (12.3)", en.join(", ")),
            format!("轴心国增援:还需选择{}(12.3)", zh.join("、")),
        ),
        _ => Text::new(
            format!("Axis reinforcements: choose {box_en}"),
            format!("轴心国增援:选择{box_zh}"),
        ),
    }
}

/// The heading an action is listed under.
fn group_of(a: &Action) -> Text {
    let (en, zh) = match a {
        Action::Pick { .. } | Action::NoExtra => ("Chit picks (6.2)", "选命令卡(6.2)"),
        Action::First { .. } => ("First chit (16.0(1))", "首个命令卡(16.0(1))"),
        Action::Choose { .. } => ("Choose units", "选择单位"),
        Action::EndChoose => ("Finish", "完成"),
        Action::Move { march: false, .. } => ("Move (9.2)", "移动(9.2)"),
        Action::Move { march: true, .. } => ("March (9.3)", "行军(9.3)"),
        Action::EndMovement => ("End movement", "结束移动"),
        Action::Declare { .. } => ("Declare attacks (10.2)", "宣告攻击(10.2)"),
        Action::Undeclare { .. } => ("Cancel attacks", "取消攻击"),
        Action::EndDeclare => ("End declarations", "结束宣告"),
        Action::Resolve { .. } => ("Resolve combat (10.4)", "结算战斗(10.4)"),
        Action::Lose { .. } => ("Take losses (10.5)", "承受损失(10.5)"),
        Action::Convert { .. } => ("Hold the fortress (14.2(5))", "坚守要塞(14.2(5))"),
        Action::Retreat { .. } => ("Retreat (10.6)", "退却(10.6)"),
        Action::Advance { .. } => ("Advance (10.7)", "战后推进(10.7)"),
        Action::EndAdvance => ("End advance", "结束推进"),
        Action::Place { .. } => ("Place", "放置"),
        Action::Fortify { .. } | Action::NoFortress => ("Fortify (14.1)", "构筑要塞(14.1)"),
        Action::Draw { .. } | Action::Die { .. } => ("Chance", "机运"),
    };
    Text::new(en, zh)
}
