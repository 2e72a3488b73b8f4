#!/usr/bin/env python3
"""Writes the paper doll as a Spine export: the test character of `paperdoll rig import`.

Run from anywhere: `python3 content/spine/make_spine_doll.py` (standard library only). It
writes, beside itself:

  paper_doll.json / paper_doll.atlas        Spine 4.2 JSON, 4.x atlas
  paper_doll_38.json / paper_doll_38.atlas  the same doll in Spine 3.8's forms (old atlas)

Both atlases cut the parts from content/art/paper_doll.png (made by make_paper_doll.py), so
no third-party art is involved. What the doll exercises, as a Spine artist would rig it:

- a root at the feet and a helper `hip` bone that carries no part, with the legs hanging
  off it (the importer joins them to the torso's body);
- zero-length bones are avoided except the root and the hip; every part is a region
  attachment turned onto its bone as in the paper doll rig (upright art, +x forward);
- two-bone IK constraints from each thigh and shin to a foot target under the root, knees
  bending clockwise (bendPositive false): the walk moves the targets, not the legs;
- `walk` (1 s loop, root motion 1 m/s): Bezier-curved arm swings and hip bob, a stepped
  head nod, the foot targets stepping; `idle` (2 s): a breathing bob; `wave` (script-only);
- a rigid mesh (a badge on the torso), a mesh weighted between the torso and the hip (a
  sash: the hip has no body, so it rides on the torso and the sash becomes rigid) and one
  weighted across the right elbow (a cuff, which bends with the elbow);
- a `bounding box` attachment (skipped with a warning) and a second skin `pale`, which
  tints the head.

Units: 1 Spine unit = 1 cm (the atlas's 4 px to the centimetre), so `--scale 100` keeps
the paper doll's size; without it the setup pose is taken as 1.8 m tall.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = "../art/paper_doll.png"
PX_PER_UNIT = 4

# Atlas rectangles of the paper doll's parts (make_paper_doll.py prints them): x, y, w, h px.
RECTS = {
    "head": (2, 2, 120, 124), "torso": (126, 2, 96, 240), "upper_arm": (226, 2, 48, 140),
    "forearm": (278, 2, 48, 156), "thigh": (330, 2, 64, 220), "shin": (398, 2, 104, 212),
}


def bones():
    out = [
        {"name": "root"},
        {"name": "hip", "parent": "root", "y": 100, "rotation": 90},
        {"name": "torso", "parent": "hip", "length": 50},
        {"name": "head", "parent": "torso", "length": 30, "x": 50},
    ]
    for side in "LR":
        out += [
            {"name": f"upper_arm.{side}", "parent": "torso", "length": 28, "x": 45, "rotation": 180},
            {"name": f"forearm.{side}", "parent": f"upper_arm.{side}", "length": 27, "x": 28, "rotation": 8},
            {"name": f"thigh.{side}", "parent": "hip", "length": 48, "rotation": 178},
            {"name": f"shin.{side}", "parent": f"thigh.{side}", "length": 46, "x": 48, "rotation": -4},
            {"name": f"foot_target.{side}", "parent": "root", "x": 0, "y": 8, "color": "ff3f00ff"},
        ]
    return out


# Parts: slot name, bone, region, x along the bone, y, rotation, slot colour (back to front).
FAR = "c4bcb4ff"
PARTS = [
    ("thigh.L", "thigh.L", "thigh", 23.5, 0, 90, FAR), ("shin.L", "shin.L", "shin", 24.5, 4.5, 90, FAR),
    ("upper_arm.L", "upper_arm.L", "upper_arm", 13.5, 0, 90, FAR),
    ("forearm.L", "forearm.L", "forearm", 17.5, 0, 90, FAR),
    ("torso", "torso", "torso", 26, 0, -90, None), ("head", "head", "head", 15, -1, -90, None),
    ("thigh.R", "thigh.R", "thigh", 23.5, 0, 90, None), ("shin.R", "shin.R", "shin", 24.5, 4.5, 90, None),
    ("upper_arm.R", "upper_arm.R", "upper_arm", 13.5, 0, 90, None),
    ("forearm.R", "forearm.R", "forearm", 17.5, 0, 90, None),
]


def region(name, x, y, rotation):
    _, _, w, h = RECTS[name]
    return {"name": name, "x": x, "y": y, "rotation": rotation, "width": w / PX_PER_UNIT, "height": h / PX_PER_UNIT}


def meshes():
    # A rigid badge on the torso (four vertices in the torso's frame) and a sash weighted
    # between the torso and the hip (each vertex: bone count, then bone, x, y, weight).
    badge = {"type": "mesh", "path": "torso", "uvs": [0.2, 0.3, 0.4, 0.3, 0.4, 0.4, 0.2, 0.4],
             "triangles": [0, 1, 2, 2, 3, 0], "vertices": [30, -6, 30, 0, 34, 0, 34, -6], "hull": 4,
             "width": 24, "height": 60}
    sash = {"type": "mesh", "path": "torso", "uvs": [0.1, 0.8, 0.9, 0.8, 0.9, 0.95, 0.1, 0.95],
            "triangles": [0, 1, 2, 2, 3, 0],
            "vertices": [1, 2, 2, -10, 1,   1, 2, 2, 10, 1,   2, 2, -2, 10, 0.5, 1, -2, 10, 0.5,
                         2, 2, -2, -10, 0.5, 1, -2, -10, 0.5],
            "hull": 4, "width": 24, "height": 60}
    # A cuff over the right elbow, weighted between the upper arm (bone 9) and the forearm
    # (bone 10): it bends with the elbow. Vertices in pairs across the arm, shoulder to wrist.
    cuff_vertices = [1, 9, 22, -4.5, 1,   1, 9, 22, 4.5, 1,
                     2, 9, 28, -4.5, 0.5, 10, 0, -4.5, 0.5,   2, 9, 28, 4.5, 0.5, 10, 0, 4.5, 0.5,
                     1, 10, 6, -4.5, 1,   1, 10, 6, 4.5, 1]
    cuff = {"type": "mesh", "path": "forearm", "uvs": [0.2, 0.0, 0.8, 0.0, 0.2, 0.15, 0.8, 0.15, 0.2, 0.3, 0.8, 0.3],
            "triangles": [0, 1, 3, 3, 2, 0, 2, 3, 5, 5, 4, 2], "vertices": cuff_vertices, "hull": 6,
            "width": 12, "height": 39}
    return badge, sash, cuff


def key_curve(t0, v0, t1, v1, ease=0.35):
    """4.x Bezier control points (absolute time and value): ease in and out."""
    return [t0 + (t1 - t0) * ease, v0, t1 - (t1 - t0) * ease, v1]


def rotate_keys(times_values, curve=True):
    keys = []
    for i, (t, v) in enumerate(times_values):
        key = {"time": t, "value": v}
        if curve and i + 1 < len(times_values):
            t1, v1 = times_values[i + 1]
            key["curve"] = key_curve(t, v, t1, v1)
        keys.append(key)
    return keys


def walk():
    swing = 22
    arms = {
        "upper_arm.L": rotate_keys([(0, swing), (0.5, -swing), (1, swing)]),
        "upper_arm.R": rotate_keys([(0, -swing), (0.5, swing), (1, -swing)]),
        "forearm.L": rotate_keys([(0, 12), (0.5, 2), (1, 12)]),
        "forearm.R": rotate_keys([(0, 2), (0.5, 12), (1, 2)]),
    }
    bones_ = {name: {"rotate": keys} for name, keys in arms.items()}
    bones_["root"] = {"translate": [{"time": 0, "x": 0}, {"time": 1, "x": 100}]}
    bob = [(0, -2), (0.25, 1), (0.5, -2), (0.75, 1), (1, -2)]
    bones_["hip"] = {"translate": [
        {"time": t, "y": v, **({"curve": [t, 0, bob[i + 1][0], 0] + key_curve(t, v, *bob[i + 1])} if i + 1 < len(bob) else {})}
        for i, (t, v) in enumerate(bob)]}
    bones_["head"] = {"rotate": [{"time": 0, "value": 2, "curve": "stepped"}, {"time": 0.5, "value": -2, "curve": "stepped"},
                                 {"time": 1, "value": 2}]}
    bones_["torso"] = {"rotate": rotate_keys([(0, -3), (0.5, -3), (1, -3)])}
    # Foot targets relative to the root (which travels 100 units a second): a stance half
    # moving back at the root's speed (planted), a swing half forward and lifted.
    stride = 25
    steps = {"R": [(0, stride, 0), (0.5, -stride, 0), (0.75, 0, 9), (1, stride, 0)],
             "L": [(0, -stride, 0), (0.25, 0, 9), (0.5, stride, 0), (1, -stride, 0)]}
    for side, keys in steps.items():
        bones_[f"foot_target.{side}"] = {"translate": [{"time": t, "x": x, "y": y} for t, x, y in keys]}
    return {"bones": bones_}


def idle():
    return {"bones": {
        "hip": {"translate": [{"time": 0, "y": 0, "curve": [0.6, 0, 0.6, 0, 0.4, 0, 0.6, -1.5]},
                              {"time": 1, "y": -1.5, "curve": [1.4, 0, 1.6, 0, 1.4, -1.5, 1.6, 0]}, {"time": 2, "y": 0}]},
        "upper_arm.L": {"rotate": rotate_keys([(0, 3), (1, 5), (2, 3)])},
        "upper_arm.R": {"rotate": rotate_keys([(0, -3), (1, -5), (2, -3)])},
    }}


def wave():
    return {"bones": {
        "upper_arm.R": {"rotate": rotate_keys([(0, 0), (0.4, 150), (1.2, 150), (1.6, 0)])},
        "forearm.R": {"rotate": rotate_keys([(0.4, 10), (0.6, 40), (0.8, 10), (1.0, 40), (1.2, 10)])},
    }, "events": [{"time": 0.4, "name": "hello"}]}


def skeleton_42():
    slots, attachments = [], {}
    for slot, bone, reg, x, y, rot, colour in PARTS:
        entry = {"name": slot, "bone": bone, "attachment": reg}
        if colour:
            entry["color"] = colour
        slots.append(entry)
        attachments[slot] = {reg: region(reg, x, y, rot)}
    badge, sash, cuff = meshes()
    slots += [{"name": "badge", "bone": "torso", "attachment": "badge"},
              {"name": "sash", "bone": "torso", "attachment": "sash"},
              {"name": "hitbox", "bone": "torso", "attachment": "hitbox"},
              {"name": "cuff", "bone": "forearm.R", "attachment": "cuff"}]
    attachments["badge"] = {"badge": badge}
    attachments["sash"] = {"sash": sash}
    attachments["cuff"] = {"cuff": cuff}
    attachments["hitbox"] = {"hitbox": {"type": "boundingbox", "vertexCount": 4,
                                        "vertices": [0, -12, 50, -12, 50, 12, 0, 12]}}
    pale_head = region("head", 15, -1, -90)
    pale_head["color"] = "ffe0e0ff"
    ik = []
    for side in "LR":
        ik.append({"name": f"leg.{side}", "order": 0, "bones": [f"thigh.{side}", f"shin.{side}"],
                   "target": f"foot_target.{side}", "bendPositive": False})
    return {
        "skeleton": {"hash": "paperdoll-test", "spine": "4.2.22", "x": -30, "y": 0, "width": 60, "height": 180,
                     "images": "./images/", "audio": ""},
        "bones": bones(),
        "slots": slots,
        "ik": ik,
        "skins": [{"name": "default", "attachments": attachments},
                  {"name": "pale", "attachments": {"head": {"head": pale_head}}}],
        "events": {"hello": {}},
        "animations": {"idle": idle(), "walk": walk(), "wave": wave()},
    }


def to_38(doc):
    """Spine 3.8's spellings: angle keys, normalised curves (c1 + c2..c4), `transform` modes,
    skins as an object by name (the form before 3.8 that 3.8 still reads)."""
    doc = json.loads(json.dumps(doc))
    doc["skeleton"]["spine"] = "3.8.99"
    for animation in doc["animations"].values():
        for timelines in animation.get("bones", {}).values():
            for kind, keys in timelines.items():
                for key in keys:
                    if kind == "rotate" and "value" in key:
                        key["angle"] = key.pop("value")
                for i, key in enumerate(keys):
                    curve = key.get("curve")
                    if isinstance(curve, list):
                        nxt = keys[i + 1]
                        t0, t1 = key.get("time", 0), nxt.get("time", 0)
                        field = "angle" if kind == "rotate" else ("y" if kind == "translate" and "y" in key else "x")
                        v0, v1 = key.get(field, 0), nxt.get(field, 0)
                        c = curve[-4:] if kind == "translate" and field == "y" else curve[:4]
                        norm = lambda v, a, b: 0.0 if b == a else (v - a) / (b - a)
                        key["curve"] = round(norm(c[0], t0, t1), 6)
                        key["c2"] = round(norm(c[1], v0, v1), 6)
                        key["c3"] = round(norm(c[2], t0, t1), 6)
                        key["c4"] = round(norm(c[3], v0, v1), 6)
    doc["skins"] = {skin["name"]: skin["attachments"] for skin in doc["skins"]}
    return doc


def atlas(old_form):
    lines = [os.path.basename(PAGE) if False else PAGE]
    lines += ["size: 512,256", "format: RGBA8888", "filter: Linear,Linear", "repeat: none"] if old_form else \
             ["  size: 512, 256", "  filter: Linear, Linear", "  pma: false"]
    for name, (x, y, w, h) in RECTS.items():
        lines.append(name)
        if old_form:
            lines += ["  rotate: false", f"  xy: {x}, {y}", f"  size: {w}, {h}", f"  orig: {w}, {h}",
                      "  offset: 0, 0", "  index: -1"]
        else:
            lines += [f"  bounds: {x}, {y}, {w}, {h}"]
    return "\n".join(lines) + "\n"


def main():
    doc = skeleton_42()
    outputs = {
        "paper_doll.json": json.dumps(doc, indent=2) + "\n",
        "paper_doll.atlas": atlas(old_form=False),
        "paper_doll_38.json": json.dumps(to_38(doc), indent=2) + "\n",
        "paper_doll_38.atlas": atlas(old_form=True),
    }
    for name, text in outputs.items():
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
        print("wrote", os.path.join(HERE, name))


if __name__ == "__main__":
    main()
