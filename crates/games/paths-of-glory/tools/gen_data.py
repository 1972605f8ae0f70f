#!/usr/bin/env python3
"""Writes data/map.toml, data/pieces.toml and data/cards.toml of Paths of Glory from the
reference CSV files (spaces, edges, pieces, cards), adding the Chinese names, our ids and the
corrections listed in data/README.md.

    python3 tools/gen_data.py REFERENCE_DIR      # run in crates/games/paths-of-glory

REFERENCE_DIR holds the four CSV files of rally-the-troops/paths-of-glory@67df587 (csv/); the
script checks their SHA-256 before reading them. It reads the card `effect` and `event` columns
of cards.csv for nothing: only numbers, flags, names and the reinforcement lists become data.
The committed TOML is the data; this script only says how it was first made.
"""

import csv
import hashlib
import os
import re
import sys

SHA256 = {
    "spaces.csv": "edf677fd1bd22e8489db74ff04a2cc7093190466b78c608ddc752107906f0019",
    "edges.csv": "44a12a7d14eb195c356e09e732817b132ed3bc37afd1b9066f984e308156f212",
    "pieces.csv": "2c453e6be41601ebff6a7b6146b6bef5ee6e2a2f52f89258057e036ee3df4bac",
    "cards.csv": "a5fb1dfbaab87dbce9043898538b9c2772c05292f8186e10e6d0dce1e716400e",
}
SOURCE = "rally-the-troops/paths-of-glory@67df587"

# The standard Chinese name of every space, by the reference row id.
ZH = {
    1: "伦敦", 2: "瑟堡", 3: "卡昂", 4: "雷恩", 5: "南特", 6: "拉罗谢尔", 7: "波尔多",
    8: "普瓦捷", 9: "图尔", 10: "勒芒", 11: "勒阿弗尔", 12: "鲁昂", 13: "奥尔良",
    14: "圣阿芒", 15: "巴黎", 16: "亚眠", 17: "加来", 18: "奥斯坦德", 19: "康布雷",
    20: "蒂耶里堡", 21: "默伦", 22: "讷韦尔", 23: "里昂", 24: "阿维尼翁", 25: "马赛",
    26: "尼斯", 27: "格勒诺布尔", 28: "第戎", 29: "巴勒迪克", 30: "色当", 31: "布鲁塞尔",
    32: "安特卫普", 33: "列日", 34: "凡尔登", 35: "南锡", 36: "贝尔福", 37: "都灵",
    38: "米卢斯", 39: "斯特拉斯堡", 40: "梅斯", 41: "科布伦茨", 42: "亚琛", 43: "埃森",
    44: "法兰克福", 45: "曼海姆", 46: "斯图加特", 47: "威廉港", 48: "不来梅", 49: "卡塞尔",
    50: "基尔", 51: "汉堡", 52: "汉诺威", 53: "爱尔福特", 54: "纽伦堡", 55: "奥格斯堡",
    56: "因斯布鲁克", 57: "特伦托", 58: "米兰", 59: "热那亚", 60: "维罗纳", 61: "博洛尼亚",
    62: "佛罗伦萨", 63: "维泰博", 64: "罗马", 65: "那不勒斯", 66: "塔兰托", 67: "福贾",
    68: "佩斯卡拉", 69: "安科纳", 70: "拉文纳", 71: "威尼斯", 72: "乌迪内", 73: "阿夏戈",
    74: "马焦雷", 75: "施皮塔尔", 76: "慕尼黑", 77: "雷根斯堡", 78: "莱比锡", 79: "柏林",
    80: "罗斯托克", 81: "斯德丁", 82: "科特布斯", 83: "德累斯顿", 84: "布拉格", 85: "科林",
    86: "林茨", 87: "菲拉赫", 88: "的里雅斯特", 89: "格拉茨", 90: "维也纳", 91: "布尔诺",
    92: "奥洛穆茨", 93: "奥珀伦", 94: "布雷斯劳", 95: "波森", 96: "托伦", 97: "科尔贝格",
    98: "但泽", 99: "柯尼斯堡", 100: "坦能堡", 101: "普沃茨克", 102: "罗兹",
    103: "琴斯托霍瓦", 104: "克拉科夫", 105: "马丁", 106: "布达佩斯", 107: "佩奇",
    108: "萨格勒布", 109: "巴尼亚卢卡", 110: "莫斯塔尔", 111: "采蒂涅", 112: "地拉那",
    113: "发罗拉", 114: "弗洛里纳", 115: "拉里萨", 116: "雅典", 117: "萨洛尼卡",
    118: "莫纳斯提尔", 119: "卡瓦拉", 120: "斯特鲁米察", 121: "斯科普里", 122: "尼什",
    123: "瓦列沃", 124: "萨拉热窝", 125: "贝尔格莱德", 126: "诺维萨德", 127: "蒂米什瓦拉",
    128: "塞格德", 129: "德布勒森", 130: "米什科尔茨", 131: "戈尔利采", 132: "塔尔努夫",
    133: "伊万哥罗德", 134: "华沙", 135: "沃姆扎", 136: "因斯特堡", 137: "梅梅尔",
    138: "利鲍", 139: "希奥利艾", 140: "里加", 141: "雷瓦尔", 142: "普斯科夫",
    143: "彼得格勒", 144: "大卢基", 145: "奥波奇卡", 146: "德文斯克", 147: "科夫诺",
    148: "维尔纳", 149: "莫洛杰奇诺", 150: "波洛茨克", 151: "维捷布斯克", 152: "莫斯科",
    153: "斯摩棱斯克", 154: "奥尔沙", 155: "罗斯拉夫尔", 156: "莫吉廖夫", 157: "明斯克",
    158: "戈梅利", 159: "斯卢茨克", 160: "巴拉诺维奇", 161: "格罗德诺", 162: "比亚韦斯托克",
    163: "布列斯特-立托夫斯克", 164: "平斯克", 165: "卢布林", 166: "科韦利", 167: "萨尔内",
    168: "莫济里", 169: "切尔尼戈夫", 170: "哈尔科夫", 171: "基辅", 172: "日托米尔",
    173: "罗夫诺", 174: "卢茨克", 175: "杜布诺", 176: "普热梅希尔", 177: "伦贝格",
    178: "乌日哥罗德", 179: "斯坦尼斯劳", 180: "塔尔诺波尔", 181: "蒙卡奇",
    182: "切尔诺维茨", 183: "卡缅涅茨-波多利斯基", 184: "文尼察", 185: "白采尔科维",
    186: "高加索", 187: "乌曼", 188: "敖德萨", 189: "日梅林卡", 190: "雅西",
    191: "锡吉什瓦拉", 192: "克卢日", 193: "赫尔曼施塔特", 194: "克龙施塔特",
    195: "特尔古日乌", 196: "阿尔杰什河畔库尔泰亚", 197: "卡拉卡尔", 198: "索非亚",
    199: "伯尔拉德", 200: "基希涅夫", 201: "伊兹梅尔", 202: "加拉茨", 203: "普洛耶什蒂",
    204: "布加勒斯特", 205: "康斯坦察", 206: "瓦尔纳", 207: "普列文", 208: "卡赞勒克",
    209: "布尔加斯", 210: "阿德里安堡", 211: "菲利波波利", 212: "加里波利",
    213: "恰纳卡莱", 214: "巴勒克埃西尔", 215: "伊兹密尔", 216: "地中海远征军滩头 1",
    217: "地中海远征军滩头 2", 218: "地中海远征军滩头 3", 219: "君士坦丁堡", 220: "布尔萨",
    221: "阿达帕扎勒", 222: "埃斯基谢希尔", 223: "锡诺普", 224: "安卡拉", 225: "萨姆松",
    226: "锡瓦斯", 227: "吉雷松", 228: "特拉布宗", 229: "埃尔津詹", 230: "里泽",
    231: "巴统", 232: "卡尔斯", 233: "波季", 234: "格罗兹尼", 235: "彼得罗夫斯克",
    236: "第比利斯", 237: "伊丽莎白波尔", 238: "巴库", 239: "埃里温", 240: "埃莱什基尔特",
    241: "埃尔祖鲁姆", 242: "迪尔曼", 243: "大不里士", 244: "凡城", 245: "比特利斯",
    246: "迪亚巴克尔", 247: "哈尔普特", 248: "开塞利", 249: "科尼亚", 250: "阿达纳",
    251: "阿勒颇", 252: "乌尔法", 253: "马尔丁", 254: "摩苏尔", 255: "哈马丹",
    256: "克尔曼沙赫", 257: "基尔库克", 258: "大马士革", 259: "贝鲁特",
    260: "地中海远征军滩头 4", 261: "纳布卢斯", 262: "安曼", 263: "巴格达", 264: "库特",
    265: "霍拉马巴德", 266: "阿瓦士", 267: "古尔奈", 268: "塞马沃", 269: "巴士拉",
    270: "纳西里耶", 271: "阿拉伯", 272: "麦地那", 273: "亚喀巴", 274: "贝尔谢巴",
    275: "耶路撒冷", 276: "加沙", 277: "西奈", 278: "开罗", 279: "塞得港", 280: "亚历山大",
    281: "利比亚", 282: "协约国预备队区", 283: "同盟国预备队区", 284: "协约国消灭区",
    285: "同盟国消灭区",
}

# English names where ours differ from the reference spelling.
EN = {
    20: "Chateau-Thierry",  # the rulebook's spelling (supplement 8.1)
    216: "MEF 1", 217: "MEF 2", 218: "MEF 3", 260: "MEF 4",
}

# Supplement 8.5: corrections to spaces.csv.
ADD_VP = {278: "Cairo", 279: "Port Said", 280: "Alexandria"}
ADD_CAPITAL = {31: "Brussels"}

FEATURE = {"br": ["only-br"], "it": ["only-it"], "ru": ["only-ru"], "mef": ["mef-beach"],
           "ana": ["only-ana"], "ana|tu": ["only-ana", "only-tu"]}

NATION_EN = {"ge": "German", "ah": "Austro-Hungarian", "tu": "Turkish", "bu": "Bulgarian",
             "sn": "Senussi", "fr": "French", "br": "British", "us": "US", "ru": "Russian",
             "it": "Italian", "be": "Belgian", "sb": "Serbian", "mn": "Montenegrin",
             "ro": "Romanian", "gr": "Greek", "ana": "Arab Northern Army"}
NATION_ZH = {"ge": "德国", "ah": "奥匈", "tu": "土耳其", "bu": "保加利亚", "sn": "赛努西",
             "fr": "法国", "br": "英国", "us": "美国", "ru": "俄国", "it": "意大利",
             "be": "比利时", "sb": "塞尔维亚", "mn": "黑山", "ro": "罗马尼亚", "gr": "希腊",
             "ana": "阿拉伯北方军"}

# Units with a name of their own: (nation, label) -> (id stem, English, Chinese).
SPECIAL = {
    ("tu", "YLD Army"): ("tu-army-yld", "Turkish Yildirim Army (YLD)", "土耳其闪电集团军"),
    ("tu", "AoI Army"): ("tu-army-aoi", "Turkish Army of Islam (AoI)", "土耳其伊斯兰军"),
    ("fr", "Orient Army"): ("fr-army-orient", "French Army of the Orient (OR)", "法国东方集团军"),
    ("br", "BEF Army"): ("br-army-bef", "British Expeditionary Force Army (BEF)", "英国远征军集团军"),
    ("br", "NE Army"): ("br-army-ne", "British Near East Army (NE)", "英国近东集团军"),
    ("br", "MEF Army"): ("br-army-mef", "Mediterranean Expeditionary Force Army (MEF)", "地中海远征军集团军"),
    ("ru", "CAU Army"): ("ru-army-cau", "Russian Caucasus Army (CAU)", "俄国高加索集团军"),
    ("br", "BEF Corps"): ("br-corps-bef", "BEF Corps", "英国远征军军"),
    ("ana", "ANA Corps"): ("ana-corps", "Arab Northern Army Corps (ANA)", "阿拉伯北方军"),
    ("br", "PT Corps"): ("br-corps-pt", "Portuguese Corps (PT)", "葡萄牙军"),
    ("br", "AUS Corps"): ("br-corps-aus", "Australian Corps (AUS)", "澳大利亚军"),
    ("br", "CND Corps"): ("br-corps-cnd", "Canadian Corps (CND)", "加拿大军"),
    ("sn", "SN Corps"): ("sn-corps", "Senussi Corps (SN)", "赛努西军"),
    ("mn", "MN Corps"): ("mn-corps", "Montenegrin Corps", "黑山军"),
    ("ru", "RU Cavalry Corps"): ("ru-cavalry", "Russian Cavalry Corps", "俄国骑兵军"),
    ("ru", "RU Czech Legion"): ("ru-czech-legion", "Czech Legion", "捷克军团"),
    ("ge", "POL Corps"): ("ge-polish", "Polish Corps", "波兰军"),
}

# Our own Chinese translation of every card's name, by (side, number).
CARD_ZH = {
    ("ap", 1): "英国援军", ("ap", 2): "封锁", ("ap", 3): "俄国援军", ("ap", 4): "普勒韦",
    ("ap", 5): "普特尼克", ("ap", 6): "撤退", ("ap", 7): "恶劣天气", ("ap", 8): "俄国援军",
    ("ap", 9): "毛奇", ("ap", 10): "法国援军", ("ap", 11): "俄国援军", ("ap", 12): "挖掘战壕",
    ("ap", 13): "比利时暴行", ("ap", 14): "英国援军", ("ap", 15): "英国援军",
    ("ap", 16): "罗马尼亚", ("ap", 17): "意大利", ("ap", 18): "飓风弹幕", ("ap", 19): "空中优势",
    ("ap", 20): "英国援军", ("ap", 21): "光气", ("ap", 22): "意大利援军",
    ("ap", 23): "斗篷与匕首", ("ap", 24): "法国援军", ("ap", 25): "俄国援军",
    ("ap", 26): "卢西塔尼亚号", ("ap", 27): "大撤退", ("ap", 28): "陆地战舰",
    ("ap", 29): "尤登尼奇(俄国援军)", ("ap", 30): "萨洛尼卡",
    ("ap", 31): "地中海远征军(英国援军)", ("ap", 32): "俄国援军", ("ap", 33): "大舰队",
    ("ap", 34): "英国援军", ("ap", 35): "美国大兵与坦克", ("ap", 36): "坑道爆破",
    ("ap", 37): "独立空军", ("ap", 38): "美国援军", ("ap", 39): "他们休想通过",
    ("ap", 40): "十四点原则", ("ap", 41): "阿拉伯北方军(英国援军)", ("ap", 42): "英国援军",
    ("ap", 43): "美国援军", ("ap", 44): "希腊", ("ap", 45): "克伦斯基攻势",
    ("ap", 46): "勃鲁西洛夫攻势", ("ap", 47): "美国援军", ("ap", 48): "皇家坦克军",
    ("ap", 49): "西奈输水管道", ("ap", 50): "艾伦比(英国援军)", ("ap", 51): "全员投入战斗",
    ("ap", 52): "护航船队", ("ap", 53): "东方集团军(法国援军)", ("ap", 54): "齐默尔曼电报",
    ("ap", 55): "在那边", ("ap", 56): "巴黎出租车", ("ap", 57): "俄国骑兵",
    ("ap", 58): "俄国近卫军", ("ap", 59): "阿尔卑斯山地部队", ("ap", 60): "捷克军团",
    ("ap", 61): "莫德", ("ap", 62): "西克斯图斯事件", ("ap", 63): "背水一战",
    ("ap", 64): "美国援军", ("ap", 65): "流感",
    ("cp", 1): "八月炮火", ("cp", 2): "无线电截收", ("cp", 3): "冯·弗朗索瓦",
    ("cp", 4): "恶劣天气", ("cp", 5): "后备军", ("cp", 6): "挖掘战壕", ("cp", 7): "德国援军",
    ("cp", 8): "奔向大海", ("cp", 9): "国会休战", ("cp", 10): "南方集团军",
    ("cp", 11): "东线总司令部", ("cp", 12): "德国援军", ("cp", 13): "法金汉",
    ("cp", 14): "奥匈援军", ("cp", 15): "氯气", ("cp", 16): "利曼·冯·桑德斯",
    ("cp", 17): "玛塔·哈丽", ("cp", 18): "机枪工事", ("cp", 19): "火焰喷射器",
    ("cp", 20): "奥匈援军", ("cp", 21): "德国援军", ("cp", 22): "德国援军",
    ("cp", 23): "奥匈援军", ("cp", 24): "利比亚起义(土耳其援军)", ("cp", 25): "公海舰队",
    ("cp", 26): "刑场", ("cp", 27): "齐柏林飞艇空袭", ("cp", 28): "沙皇亲征",
    ("cp", 29): "第11集团军", ("cp", 30): "阿尔卑斯军", ("cp", 31): "凯末尔",
    ("cp", 32): "非洲战争", ("cp", 33): "瓦尔特·拉特瑙", ("cp", 34): "保加利亚",
    ("cp", 35): "芥子气", ("cp", 36): "无限制潜艇战", ("cp", 37): "霍夫曼",
    ("cp", 38): "德国援军", ("cp", 39): "德国援军", ("cp", 40): "空中优势",
    ("cp", 41): "德国援军", ("cp", 42): "土耳其援军", ("cp", 43): "冯·贝洛",
    ("cp", 44): "冯·胡蒂尔", ("cp", 45): "布列斯特-立托夫斯克条约", ("cp", 46): "德国援军",
    ("cp", 47): "法军哗变", ("cp", 48): "土耳其援军", ("cp", 49): "米夏埃尔",
    ("cp", 50): "布吕歇尔", ("cp", 51): "和平攻势", ("cp", 52): "沙皇倒台",
    ("cp", 53): "布尔什维克革命", ("cp", 54): "兴登堡与鲁登道夫掌权", ("cp", 55): "劳合·乔治",
    ("cp", 56): "撤退", ("cp", 57): "忠于皇帝", ("cp", 58): "俄军大本营的怯懦",
    ("cp", 59): "波兰复国", ("cp", 60): "土耳其人的决心", ("cp", 61): "黑格",
    ("cp", 62): "注意:坦克", ("cp", 63): "俄军逃亡", ("cp", 64): "阿尔贝里希",
    ("cp", 65): "马克斯亲王",
}

# Supplement 8.5: corrections to cards.csv, each with its basis.
CARD_FIX = {
    ("cp", 33): ({"ws": 2}, "War Status 2, not the csv's 1 (card image; War Status track, player aid 4)"),
    ("cp", 34): ({"ws": 2}, "War Status 2, not the csv's 1 (card image; War Status track, player aid 4)"),
    ("ap", 45): ({"cc": False}, "not a combat card: an event that also gives Operations (card image)"),
    ("ap", 47): ({"reinf_nation": "us", "reinf": "2 Army|US Corps"},
                 "brings US 2nd Army and 1 US corps; the csv lists none (card image; Reinforcements card)"),
    ("cp", 14): ({"name": "Austria-Hungary Reinforcements"}, "the csv's name is cut to `Austria`"),
    ("cp", 20): ({"name": "Austria-Hungary Reinforcements"}, "the csv's name is cut to `Austria`"),
    ("cp", 23): ({"name": "Austria-Hungary Reinforcements"}, "spelt as CP #14 and #20"),
}


def read(ref, name):
    path = os.path.join(ref, name)
    raw = open(path, "rb").read()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != SHA256[name]:
        sys.exit(f"{path}: SHA-256 {digest}, not the reference copy")
    return list(csv.DictReader(raw.decode("ascii").splitlines()))


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def num(s):
    return int(s) if s else 0


def write_map(ref, out):
    spaces = read(ref, "spaces.csv")
    edges = read(ref, "edges.csv")
    ids = {}
    for r in spaces:
        ids[int(r["id"])] = slug(r["name"])
    assert len(set(ids.values())) == len(ids)
    L = []
    L.append("# Paths of Glory: the map's spaces, holding boxes and connections.")
    L.append("# Generated by tools/gen_data.py from the reference CSV files, then the committed")
    L.append("# file is the data. Spaces keep the reference row order; `ref` is the reference row id.")
    L.append("")
    L.append("[about]")
    L.append('source = "reference"')
    L.append('basis = """reference: %s, csv/spaces.csv and csv/edges.csv (names, ids,' % SOURCE)
    L.append("positions, countries, starting sides, terrain, supply, port, capital and VP flags, fort")
    L.append("values, connections and their nationality restrictions), with the corrections of")
    L.append("supplement 8.5 marked where they are made. Chinese names are ours (standard exonyms).")
    L.append('Flags: supply-source, port-ap, port-cp, capital, vp. Properties: ref (reference row id),')
    L.append('map (europe | near-east | box), nation, faction (ap | cp: the side that controls it at')
    L.append('start or when its nation enters; the owner of its fort), fort (fort value = CF = LF),')
    L.append('vp (1 on a VP space, as in the Historical scenario, 5.7.2), w and h (drawn size in')
    L.append('pixels). x and y are centres on the 2550 x 1650 map. A connection feature only-XX is')
    L.append('a dashed line only nationality XX may use (several: any of them); mef-beach is a')
    L.append('beach link (9.5.3.5, 11.1.10)."""')
    L.append("")
    L.append("[legend]")
    L.append('terrain = ["mountain", "forest", "swamp", "desert"]')
    L.append('features = ["only-br", "only-it", "only-ru", "mef-beach", "only-ana", "only-tu"]')
    for r in spaces:
        i = int(r["id"])
        L.append("")
        if i in ADD_VP:
            L.append(f"# Correction (supplement 8.5): {ADD_VP[i]} is a VP space (red outline on the")
            L.append("# Deluxe map; supplement 6.17 lists it among the Allied VP spaces); the csv omits it.")
        if i in ADD_CAPITAL:
            L.append("# Correction (supplement 8.5): Brussels is the capital of Belgium (rule 3.0);")
            L.append("# the csv does not flag it.")
        L.append("[[space]]")
        L.append(f"id = {q(ids[i])}")
        L.append(f"name_en = {q(EN.get(i, r['name']))}")
        L.append(f"name_zh = {q(ZH[i])}")
        if r["terrain"]:
            L.append(f"terrain = [{q(r['terrain'])}]")
        L.append(f"x = {r['x']}")
        L.append(f"y = {r['y']}")
        flags = []
        if r["supply"]:
            flags.append("supply-source")
        if r["apport"]:
            flags.append("port-ap")
        if r["cpport"]:
            flags.append("port-cp")
        if r["capital"] or i in ADD_CAPITAL:
            flags.append("capital")
        vp = r["vp"] == "1" or i in ADD_VP
        if vp:
            flags.append("vp")
        if flags:
            L.append("flags = [" + ", ".join(q(f) for f in flags) + "]")
        props = [f"ref = {i}"]
        mp = {"europe": "europe", "neareast": "near-east", "": "box"}[r["map"]]
        props.append(f"map = {q(mp)}")
        if r["nation"] and r["nation"] != "none":
            props.append(f"nation = {q(r['nation'])}")
        props.append(f"faction = {q(r['faction'])}")
        if r["fort"]:
            props.append(f"fort = {int(r['fort'])}")
        if vp:
            props.append("vp = 1")
        props.append(f"w = {r['w']}")
        props.append(f"h = {r['h']}")
        L.append("properties = { " + ", ".join(props) + " }")
    for e in edges:
        a, b = int(e["a"]), int(e["b"])
        L.append("")
        if e["nations"] == "mef":
            L.append("# The MEF beach link (supplement 8.5): kept once, as `mef-beach`; our reading is")
            L.append("# that both sides may use it while the MEF Beachhead marker is on this beach")
            L.append("# (9.5.3.5, 11.1.10), instead of the duplicate open link later versions of the source add.")
        L.append("[[connection]]")
        L.append(f"a = {q(ids[a])}")
        L.append(f"b = {q(ids[b])}")
        if e["nations"]:
            L.append("features = [" + ", ".join(q(f) for f in FEATURE[e["nations"]]) + "]")

    def space_set(name, members, comment):
        L.append("")
        for c in comment:
            L.append("# " + c)
        L.append("[[space_set]]")
        L.append(f"name = {q(name)}")
        L.append("spaces = [")
        for m in members:
            L.append(f"  {q(m)},")
        L.append("]")

    by_name = {r["name"]: ids[int(r["id"])] for r in spaces}
    space_set("near-east", [ids[int(r["id"])] for r in spaces if r["map"] == "neareast"],
              ["The Near East section (11.3): Constantinople and Bursa are drawn on the main map",
               "but belong to it."])
    space_set("boxes", [ids[int(r["id"])] for r in spaces if r["map"] == ""],
              ["The off-map holding boxes: no connections."])
    space_set("mef-beaches", [by_name[n] for n in ["MEF1", "MEF2", "MEF3", "MEF4"]],
              ["The four MEF beach spaces (9.5.3.3)."])
    space_set("supply-cp", [by_name[n] for n in ["Essen", "Breslau", "Sofia", "Constantinople"]],
              ["Supply sources of every CP unit (14.2)."])
    space_set("supply-ru-sb-ro", [by_name[n] for n in ["Petrograd", "Moscow", "Kharkov", "Caucasus", "Belgrade"]],
              ["Supply sources of Russian, Serbian and Romanian units (14.2): the supply symbols",
               "on the east edge of Russia, and Belgrade."])
    space_set("supply-sb-salonika", [by_name["Salonika"]],
              ["A further Serbian supply source while Allied-controlled (14.2); the csv does not",
               "flag it."])
    space_set("supply-ap-other", [by_name["London"]],
              ["The supply source of every other Allied unit (14.2)."])
    space_set("vp-historical-added", [by_name[n] for n in ["Kovno", "Sedan", "Amiens", "Koblenz", "Aachen"]],
              ["VP spaces only by the Historical scenario's rule 5.7.2.3. The csv's VP flags, like the",
               "Deluxe map, already follow 5.7.2: these five are flagged `vp`."])
    space_set("vp-historical-removed", [by_name[n] for n in ["Ahwaz", "Venice", "Minsk", "Jerusalem", "Kharput"]],
              ["VP spaces that the Historical scenario's rule 5.7.2.2 takes away (the seed's 11.1.12",
               "still counts Ahwaz as an Allied VP space). Not flagged `vp`: a scenario without 5.7.2",
               "adds them and drops the set above."])
    open(out, "w").write("\n".join(L) + "\n")


def write_pieces(ref, out):
    pieces = read(ref, "pieces.csv")
    # Supplement 8.5: the csv has 4 US corps, the game 6 (AP #38, #43 x2, #47, #64 x2).
    us = [p for p in pieces if p["nation"] == "us" and p["type"] == "corps"]
    assert len(us) == 4
    at = pieces.index(us[-1]) + 1
    for _ in range(2):
        pieces.insert(at, dict(us[-1], _added="1"))
    seen = {}
    L = []
    L.append("# Paths of Glory: the 193 counters. Generated by tools/gen_data.py; the committed file")
    L.append("# is the data.")
    L.append("")
    L.append("[about]")
    L.append('source = "reference"')
    L.append('basis = """reference: %s, csv/pieces.csv (sides, nations, types, factors,' % SOURCE)
    L.append("dotted and Near East flags, RP pools), with the corrections of supplement 8.5: the two")
    L.append("US corps the csv lacks, and the ANA coded as its own nation for the dashed lines.")
    L.append('Names in both languages and ids are ours."""')
    for p in pieces:
        nation = p["nation"]
        label = p["name"]
        comment = []
        extra = []
        if label == "ANA Corps":
            nation = "ana"
            comment = ["# Correction (supplement 8.5, 11.1.4): the csv codes the ANA `br`. It activates and",
                       "# attacks as British, but uses the ANA-only lines and not the British-only ones."]
            extra.append('activates_as = "br"')
        if label == "SN Corps":
            comment = ["# Turkish for activation, dashed lines and multinational attacks (supplement 6.18)."]
            extra.append('activates_as = "tu"')
            extra.append('lines_as = "tu"')
        if label == "MN Corps":
            comment = ["# Serbian for activation and multinational attacks (supplement 6.18)."]
            extra.append('activates_as = "sb"')
        if p.get("_added"):
            comment = ["# Correction (supplement 8.5): one of the two US corps the csv lacks; the game has",
                       "# six (AP #38 one, #43 two, #47 one, #64 two)."]
        key = (nation, label)
        if key in SPECIAL:
            stem, en, zh = SPECIAL[key]
        elif p["type"] == "army":
            n = label.split()[0]
            stem = f"{nation}-army-{n}"
            en = f"{NATION_EN[nation]} {ordinal(int(n))} Army"
            zh = f"{NATION_ZH[nation]}第{n}集团军"
        else:
            stem = f"{nation}-corps"
            en = f"{NATION_EN[nation]} Corps"
            zh = f"{NATION_ZH[nation]}军"
        seen[stem] = seen.get(stem, 0) + 1
        count = sum(1 for x in pieces if (("ana" if x["name"] == "ANA Corps" else x["nation"]), x["name"]) == key)
        pid = stem if count == 1 else f"{stem}-{seen[stem]}"
        L.append("")
        L.extend(comment)
        L.append("[[piece]]")
        L.append(f"id = {q(pid)}")
        L.append(f"side = {q(p['faction'])}")
        L.append(f"nation = {q(nation)}")
        L.extend(extra)
        L.append(f"kind = {q(p['type'])}")
        L.append(f"label = {q(label)}")
        L.append(f"name_en = {q(en)}")
        L.append(f"name_zh = {q(zh)}")
        L.append(f"full = {{ cf = {num(p['cf'])}, lf = {num(p['lf'])}, mf = {num(p['mf'])} }}")
        L.append(f"reduced = {{ cf = {num(p['rcf'])}, lf = {num(p['rlf'])}, mf = {num(p['rmf'])} }}")
        if p["notreplaceable"]:
            L.append("not_replaceable = true")
        if p["neareast"]:
            L.append("near_east = true")
        if p["rptype"]:
            L.append(f"rp = {q(p['rptype'])}")
    open(out, "w").write("\n".join(L) + "\n")


def ordinal(n):
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def write_cards(ref, out):
    cards = read(ref, "cards.csv")
    L = []
    L.append("# Paths of Glory: the 130 strategy cards (65 a side; 56-65 optional). Generated by")
    L.append("# tools/gen_data.py; the committed file is the data. No card text here: the events'")
    L.append("# short descriptions are written separately, in our own words.")
    L.append("")
    L.append("[about]")
    L.append('source = "reference"')
    L.append('basis = """reference: %s, csv/cards.csv (numbers, sides, decks, OPS, SR,' % SOURCE)
    L.append("remove and combat-card flags, War Status numbers, RP boxes, reinforcement lists), with")
    L.append("the corrections of supplement 8.5 marked where they are made. English names as the")
    L.append('source spells them; Chinese names are our translation."""')
    for c in cards:
        side, n = c["faction"], int(c["num"])
        c = dict(c)
        fix = CARD_FIX.get((side, n))
        L.append("")
        if fix:
            c.update({k: v for k, v in fix[0].items()})
            L.append(f"# Correction (supplement 8.5): {fix[1]}.")
        L.append("[[card]]")
        L.append(f'id = "{side}-{n:02}"')
        L.append(f"side = {q(side)}")
        L.append(f"number = {n}")
        L.append(f"deck = {q(c['commitment'])}")
        if n >= 56:
            L.append("optional = true")
        L.append(f"name_en = {q(c['name'])}")
        L.append(f"name_zh = {q(CARD_ZH[(side, n)])}")
        L.append(f"ops = {int(c['ops'])}")
        L.append(f"sr = {int(c['sr'])}")
        if c["remove"]:
            L.append("remove = true")
        if c["cc"] is True or c["cc"] == "TRUE":
            L.append("combat = true")
        if c["ws"]:
            L.append(f"ws = {int(c['ws'])}")
        rp = []
        for k in ["a", "br", "fr", "it", "ru", "ah", "bu", "ge", "tu"]:
            if c["rp_" + k]:
                rp.append(f"{k} = {int(c['rp_' + k])}")
        L.append("rp = { " + ", ".join(rp) + " }")
        if c["reinf"]:
            units = c["reinf"].split("|")
            L.append(f"reinforcements = {{ nation = {q(c['reinf_nation'])}, units = [" +
                     ", ".join(q(u) for u in units) + "] }")
    open(out, "w").write("\n".join(L) + "\n")


def fnv1a64(text):
    h = 0xcbf29ce484222325
    for b in text.encode("utf-8"):
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def write_effect_digests(ref, out):
    """FNV-1a 64 digests of the trimmed `effect` cells, so a test can check that no string of our
    data equals one without the repository holding their wording."""
    cards = read(ref, "cards.csv")
    digests = sorted({fnv1a64(c["effect"].strip()) for c in cards if c["effect"].strip()})
    L = ["# FNV-1a 64-bit digests of the trimmed `effect` cells of the reference cards.csv",
         "# (written by tools/gen_data.py). The wording itself is not ours and is not kept here."]
    L.extend(f"{d:016x}" for d in digests)
    open(out, "w").write("\n".join(L) + "\n")


def main():
    ref = sys.argv[1] if len(sys.argv) > 1 else None
    if not ref:
        sys.exit(__doc__)
    write_map(ref, "data/map.toml")
    write_pieces(ref, "data/pieces.toml")
    write_cards(ref, "data/cards.toml")
    write_effect_digests(ref, "tests/effect-digests.txt")


if __name__ == "__main__":
    main()
