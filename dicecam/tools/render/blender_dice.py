"""Physically based renders of single dice for the die reader, made with Blender's ``bpy``.

Runs in its own environment (``bpy`` pins numpy 1.26, the product's OpenCV needs numpy 2):
``dicecam train render`` makes ``.venv-render`` and starts this file there as a script, so
it imports nothing from dicecam. Each sample is one camera view of one die (plus touching
neighbours) on a table, written as ``NNNNNN.png`` with one JSON line in ``labels.jsonl``:
the class (0 = not a readable d6, k = k pips on top), the top face's box in pixels, and what
was drawn.

What varies, each from the sample's own seed (``seed * 1_000_003 + index``), so a sample
is the same whichever process renders it:
- the die: cube with rounded edges (sharp to casino-round), pips cut by one boolean
  (drilled round or shallow painted), body plain, pastel, dark, translucent or marbled
  (veined, not camouflage), pips in a colour that contrasts with the body;
- the table: felt, wood, loop-pile or speckled carpet (texture at the die's scale),
  granite, leather, patterned cloth, white desk, or a photo (``--backgrounds DIR``);
- the camera: 0-50 degrees off vertical, any turn, lens 25-85 mm;
- the light: a sun (hard shadows) or an area lamp (soft), 2700-6500 K, ambient sky.

Class 0 samples (about 16%): a die cocked on an edge, another polyhedron (d4, d8, d10
stand-in, d20), the bare table, a die mostly out of the view.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import bpy
import numpy as np
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Euler, Matrix, Vector

#: pip centres on a unit face, in face coordinates (u, v) of +-1 at the edges
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
#: value -> the face's outward normal before the die is turned (opposite faces sum to 7)
FACE_NORMAL = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0),
               3: (0, 1, 0), 4: (0, -1, 0)}
SIZE = 1.0  # die edge (arbitrary unit: 16 mm)
TABLES = ("felt", "wood", "loop_carpet", "speckled_carpet", "granite", "leather",
          "cloth", "desk", "photo")
UNREADABLE_KINDS = ("cocked", "polyhedron", "bare", "off_centre")


def kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """An approximate blackbody colour (Tanner Helland's fit), linear-ish 0..1."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    return tuple(min(1.0, max(0.0, c / 255.0)) ** 2.2 for c in (r, g, b))


def srgb(c):
    return tuple(min(1.0, max(0.0, x)) ** 2.2 for x in c)


# --------------------------------------------------------------------------- scene

def clear_sample() -> None:
    """Remove the last sample's objects, materials, lights and images (the die meshes
    stay)."""
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    for collection in (bpy.data.materials, bpy.data.lights, bpy.data.cameras,
                       bpy.data.images):
        for block in list(collection):
            if not block.use_fake_user:
                collection.remove(block)
    for mesh in list(bpy.data.meshes):
        if not mesh.use_fake_user:
            bpy.data.meshes.remove(mesh)


def reset_scene(px: int, samples: int) -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    _shape_meshes.clear()
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = True
    scene.cycles.max_bounces = 6
    scene.cycles.transmission_bounces = 6
    scene.render.threads_mode = "FIXED"
    scene.render.threads = 1
    scene.render.resolution_x = px
    scene.render.resolution_y = px
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.view_settings.view_transform = "Standard"
    scene.render.film_transparent = False
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    scene.world = world


def new_material(name: str):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    return mat, mat.node_tree.nodes, mat.node_tree.links


def bsdf_of(nodes):
    return next(n for n in nodes if n.type == "BSDF_PRINCIPLED")


def body_material(rng: np.random.Generator):
    """A die body: plain, pastel, dark, translucent or marbled; returns (material, tone)
    where tone is the body's brightness 0..1 (pips must contrast with it)."""
    kind = rng.choice(["plain", "plain", "pastel", "dark", "translucent", "marbled", "ivory"],)
    mat, nodes, links = new_material("body")
    bsdf = bsdf_of(nodes)
    hue = rng.random()
    if kind == "ivory":
        base = (0.92, 0.88, 0.76) if rng.random() < 0.5 else (0.95, 0.95, 0.93)
    elif kind == "pastel":
        base = hsv(hue, rng.uniform(0.15, 0.4), rng.uniform(0.8, 0.95))
    elif kind == "dark":
        base = hsv(hue, rng.uniform(0, 0.6), rng.uniform(0.05, 0.25))
    else:
        base = hsv(hue, rng.uniform(0.5, 1.0), rng.uniform(0.35, 0.95))
    bsdf.inputs["Base Color"].default_value = (*srgb(base), 1)
    bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.15, 0.6))
    if kind == "translucent":
        bsdf.inputs["Transmission Weight"].default_value = float(rng.uniform(0.6, 0.95))
        bsdf.inputs["IOR"].default_value = 1.5
        bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.05, 0.3))
    if kind == "marbled":
        # veins: a distorted wave, sharpened by a colour ramp into a second colour
        wave = nodes.new("ShaderNodeTexWave")
        wave.inputs["Scale"].default_value = float(rng.uniform(1.5, 4.0))
        wave.inputs["Distortion"].default_value = float(rng.uniform(4, 12))
        wave.inputs["Detail"].default_value = 4.0
        ramp = nodes.new("ShaderNodeValToRGB")
        vein = hsv((hue + rng.uniform(-0.08, 0.08)) % 1, rng.uniform(0.3, 1.0),
                   rng.uniform(0.6, 1.0) if base_value(base) < 0.6 else rng.uniform(0.1, 0.4))
        # a thin band of the vein colour in the middle of the wave, body colour around it
        # (wide bands of two colours look like camouflage, not marble)
        vein = [0.5 * a + 0.5 * b for a, b in zip(base, vein, strict=True)]
        width = float(rng.uniform(0.02, 0.06))
        elements = ramp.color_ramp.elements
        elements[0].position, elements[0].color = 0.5 - width, (*srgb(base), 1)
        elements[1].position, elements[1].color = 0.5 + width, (*srgb(base), 1)
        middle = elements.new(0.5)
        middle.color = (*srgb(vein), 1)
        links.new(wave.outputs["Fac"], ramp.inputs["Fac"])
        links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    return mat, kind, base_value(base)


def hsv(h, s, v):
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    return [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]


def base_value(rgb) -> float:
    return max(rgb)


def pip_material(rng: np.random.Generator, body_tone: float):
    mat, nodes, _ = new_material("pips")
    bsdf = bsdf_of(nodes)
    if body_tone > 0.6:
        choices = [(0.03, 0.03, 0.03), (0.03, 0.03, 0.03), (0.6, 0.05, 0.05),
                   (0.05, 0.1, 0.5), (0.05, 0.35, 0.1)]
    else:
        choices = [(0.95, 0.95, 0.95), (0.95, 0.95, 0.95), (1.0, 0.85, 0.1),
                   (0.85, 0.7, 0.3), (0.03, 0.03, 0.03) if body_tone > 0.45 else (1, 1, 1)]
    colour = choices[int(rng.integers(len(choices)))]
    bsdf.inputs["Base Color"].default_value = (*srgb(colour), 1)
    bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.3, 0.8))
    return mat


#: die shapes, built once per process and shared by every sample: (edge rounding, pip
#: radius as seen on the face, drilled or painted)
SHAPES = [(bevel, pip, drilled) for bevel in (0.04, 0.09, 0.15) for pip in (0.075, 0.1)
          for drilled in (True, False)]
_shape_meshes: dict[int, object] = {}


def die_mesh(shape: int):
    """The mesh of one die shape: a cube with rounded edges and all 21 pips cut by one
    boolean, value 1 on +Z; material slot 0 is the body, slot 1 the pips."""
    if shape in _shape_meshes:
        return _shape_meshes[shape]
    bevel_width, face_radius, drilled = SHAPES[shape]
    bpy.ops.mesh.primitive_cube_add(size=SIZE)
    die = bpy.context.active_object
    slots = [bpy.data.materials.get(name) or bpy.data.materials.new(name)
             for name in ("slot_body", "slot_pips")]
    for material in slots:
        material.use_fake_user = True  # kept by clear_sample: the shared meshes use them
        die.data.materials.append(material)
    # a drilled pip is a deep sphere cut, a painted one a shallow cut of a larger sphere;
    # both show a circle of ``face_radius`` on the face
    radius = face_radius / 0.87 if drilled else face_radius * 2.2
    depth = radius - math.sqrt(radius ** 2 - face_radius ** 2)
    spread = 0.26
    bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, segments=20, ring_count=10)
    proto = bpy.context.active_object
    for material in slots:
        proto.data.materials.append(material)
    for polygon in proto.data.polygons:
        polygon.material_index = 1
    cutters = []
    for value, normal in FACE_NORMAL.items():
        n = Vector(normal)
        u = Vector((0, 1, 0)) if abs(n.x) > 0.5 else Vector((1, 0, 0))
        v = n.cross(u)
        for pu, pv in PIPS[value]:
            c = proto.copy()
            c.location = n * (SIZE / 2 + radius - depth) + u * pu * spread + v * pv * spread
            bpy.context.collection.objects.link(c)
            cutters.append(c)
    bpy.data.objects.remove(proto)
    bpy.ops.object.select_all(action="DESELECT")
    for c in cutters:
        c.select_set(True)
    bpy.context.view_layer.objects.active = cutters[0]
    bpy.ops.object.join()
    holes = bpy.context.active_object
    boolean = die.modifiers.new("pips", "BOOLEAN")
    boolean.operation = "DIFFERENCE"
    boolean.object = holes
    boolean.material_mode = "TRANSFER"
    bevel = die.modifiers.new("round", "BEVEL")
    bevel.width = bevel_width
    bevel.segments = 4
    bevel.limit_method = "ANGLE"
    bpy.context.view_layer.objects.active = die
    for mod in list(die.modifiers):
        bpy.ops.object.modifier_apply(modifier=mod.name)
    bpy.data.objects.remove(holes)
    bpy.ops.object.select_all(action="DESELECT")
    die.select_set(True)
    # flat: smooth shading over the boolean's long triangles draws stars on the faces
    bpy.ops.object.shade_flat()
    mesh = die.data
    mesh.use_fake_user = True
    bpy.data.objects.remove(die)
    _shape_meshes[shape] = mesh
    return mesh


def build_die(rng: np.random.Generator, body, pips, name: str):
    """A die of a random shape with these materials (set on the object, so the shared mesh
    stays untouched)."""
    die = bpy.data.objects.new(name, die_mesh(int(rng.integers(len(SHAPES)))))
    bpy.context.collection.objects.link(die)
    for slot, material in zip(die.material_slots, (body, pips), strict=True):
        slot.link = "OBJECT"
        slot.material = material
    return die


def _bipyramid(vertices: int, radius: float, depth: float, twist: float) -> None:
    """Two pyramids base to base, joined into the active object."""
    bpy.ops.mesh.primitive_cone_add(vertices=vertices, radius1=radius, depth=depth)
    top = bpy.context.active_object
    bpy.ops.mesh.primitive_cone_add(vertices=vertices, radius1=radius, depth=depth,
                                    location=(0, 0, -depth), rotation=(math.pi, twist, 0))
    top.select_set(True)
    bpy.ops.object.join()


def polyhedron(rng: np.random.Generator, body):
    """Another die that is not a d6: d4 (tetrahedron), d8, d20, or a d10 stand-in."""
    kind = rng.choice(["d4", "d8", "d10", "d20"])
    if kind == "d20":
        bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=1, radius=0.75)
    elif kind == "d4":
        bpy.ops.mesh.primitive_cone_add(vertices=3, radius1=0.8, depth=0.9)
    elif kind == "d8":
        _bipyramid(vertices=4, radius=0.7, depth=0.7, twist=0.0)
    else:  # a d10 stand-in: two five-sided pyramids, one turned against the other
        _bipyramid(vertices=5, radius=0.65, depth=0.6, twist=0.3)
    obj = bpy.context.active_object
    obj.data.materials.append(body)
    bevel = obj.modifiers.new("round", "BEVEL")
    bevel.width = 0.03
    obj.rotation_euler = Euler([float(a) for a in rng.uniform(0, 2 * math.pi, 3)])
    bpy.context.view_layer.update()
    lowest = min((obj.matrix_world @ v.co).z for v in obj.data.vertices)
    obj.location.z -= lowest
    return obj, str(kind)


def place_die(die, value: int, yaw: float, cocked: float = 0.0, x=0.0, y=0.0):
    """Turn the die so ``value`` is on top, yaw it, optionally cock it on an edge, and set
    it on the table at (x, y)."""
    n = Vector(FACE_NORMAL[value])
    up = n.rotation_difference(Vector((0, 0, 1))).to_matrix().to_4x4()
    turn = Matrix.Rotation(yaw, 4, "Z")
    tip = Matrix.Rotation(cocked, 4, "X")
    die.matrix_world = turn @ tip @ up
    bpy.context.view_layer.update()
    lowest = min((die.matrix_world @ v.co).z for v in die.data.vertices)
    die.location = (x, y, -lowest)
    bpy.context.view_layer.update()


def table_material(rng: np.random.Generator, kind: str, photos: list[Path]):
    mat, nodes, links = new_material("table")
    bsdf = bsdf_of(nodes)
    coord = nodes.new("ShaderNodeTexCoord")
    hue = rng.random()
    bsdf.inputs["Roughness"].default_value = 0.8

    def colour_mix(tex_out, a, b, lo=0.3, hi=0.7):
        ramp = nodes.new("ShaderNodeValToRGB")
        ramp.color_ramp.elements[0].position = lo
        ramp.color_ramp.elements[0].color = (*srgb(a), 1)
        ramp.color_ramp.elements[1].position = hi
        ramp.color_ramp.elements[1].color = (*srgb(b), 1)
        links.new(tex_out, ramp.inputs["Fac"])
        links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])

    def bump(tex_out, strength):
        node = nodes.new("ShaderNodeBump")
        node.inputs["Strength"].default_value = strength
        links.new(tex_out, node.inputs["Height"])
        links.new(node.outputs["Normal"], bsdf.inputs["Normal"])

    if kind == "photo" and photos:
        tex = nodes.new("ShaderNodeTexImage")
        tex.image = bpy.data.images.load(str(photos[int(rng.integers(len(photos)))]))
        mapping = nodes.new("ShaderNodeMapping")
        scale = float(rng.uniform(0.03, 0.12))
        mapping.inputs["Scale"].default_value = (scale, scale, 1)
        mapping.inputs["Location"].default_value = (float(rng.random()), float(rng.random()), 0)
        links.new(coord.outputs["Object"], mapping.inputs["Vector"])
        links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
        links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
        return mat
    if kind == "felt":
        tex = nodes.new("ShaderNodeTexNoise")
        tex.inputs["Scale"].default_value = 40.0
        base = hsv(hue, rng.uniform(0.3, 0.9), rng.uniform(0.15, 0.6))
        colour_mix(tex.outputs["Fac"], [c * 0.85 for c in base], base)
        bsdf.inputs["Roughness"].default_value = 1.0
    elif kind == "wood":
        tex = nodes.new("ShaderNodeTexWave")
        tex.inputs["Scale"].default_value = float(rng.uniform(0.3, 1.2))
        tex.inputs["Distortion"].default_value = float(rng.uniform(2, 8))
        tex.bands_direction = "X"
        light = hsv(rng.uniform(0.05, 0.11), rng.uniform(0.4, 0.7), rng.uniform(0.35, 0.85))
        colour_mix(tex.outputs["Fac"], [c * 0.6 for c in light], light)
        bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.3, 0.7))
    elif kind in ("loop_carpet", "speckled_carpet"):
        # loops about a tenth of a die: Voronoi cells with a bump; flecks in a second colour
        tex = nodes.new("ShaderNodeTexVoronoi")
        tex.inputs["Scale"].default_value = float(rng.uniform(8, 16))
        base = hsv(hue, rng.uniform(0, 0.5), rng.uniform(0.2, 0.85))
        fleck = hsv(rng.random(), rng.uniform(0, 0.8), rng.uniform(0.1, 1.0))
        if kind == "speckled_carpet":
            noise = nodes.new("ShaderNodeTexNoise")
            noise.inputs["Scale"].default_value = float(rng.uniform(12, 30))
            colour_mix(noise.outputs["Fac"], base, fleck, 0.55, 0.62)
        else:
            colour_mix(tex.outputs["Distance"], [c * 0.6 for c in base], base, 0.0, 0.5)
        bump(tex.outputs["Distance"], float(rng.uniform(0.3, 0.8)))
        bsdf.inputs["Roughness"].default_value = 1.0
    elif kind == "granite":
        tex = nodes.new("ShaderNodeTexVoronoi")
        tex.inputs["Scale"].default_value = float(rng.uniform(6, 20))
        tex.feature = "F1"
        colour_mix(tex.outputs["Color"], hsv(hue, 0.1, rng.uniform(0.05, 0.3)),
                   hsv(hue, 0.15, rng.uniform(0.5, 0.9)), 0.4, 0.6)
        bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.15, 0.4))
    elif kind == "leather":
        tex = nodes.new("ShaderNodeTexVoronoi")
        tex.inputs["Scale"].default_value = float(rng.uniform(15, 30))
        base = hsv(rng.uniform(0, 0.1), rng.uniform(0, 0.6), rng.uniform(0.02, 0.25))
        bsdf.inputs["Base Color"].default_value = (*srgb(base), 1)
        bump(tex.outputs["Distance"], 0.2)
        bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.3, 0.6))
    elif kind == "cloth":
        tex = nodes.new(str(rng.choice(["ShaderNodeTexChecker", "ShaderNodeTexBrick",
                                        "ShaderNodeTexMagic"])))
        tex.inputs["Scale"].default_value = float(rng.uniform(0.5, 3.0))
        a = hsv(hue, rng.uniform(0.2, 0.9), rng.uniform(0.3, 0.9))
        b = hsv((hue + rng.uniform(0.2, 0.5)) % 1, rng.uniform(0.2, 0.9), rng.uniform(0.2, 0.9))
        colour_mix(tex.outputs["Fac"] if "Fac" in tex.outputs else tex.outputs[0], a, b)
        bsdf.inputs["Roughness"].default_value = 0.95
    else:  # desk: white, a faint grain
        tex = nodes.new("ShaderNodeTexNoise")
        tex.inputs["Scale"].default_value = 3.0
        grey = rng.uniform(0.75, 0.95)
        bsdf.inputs["Base Color"].default_value = (*srgb((grey, grey, grey * 0.98)), 1)
        bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.2, 0.6))
    links.new(coord.outputs["Object"], tex.inputs["Vector"])
    return mat


def add_table(rng, kind, photos):
    bpy.ops.mesh.primitive_plane_add(size=40)
    table = bpy.context.active_object
    table.data.materials.append(table_material(rng, kind, photos))
    return table


def add_light(rng: np.random.Generator) -> dict:
    kelvin = float(rng.uniform(2700, 6500))
    colour = kelvin_rgb(kelvin)
    world = bpy.context.scene.world
    background = world.node_tree.nodes["Background"]
    sky = float(rng.uniform(0.1, 0.6))
    background.inputs["Color"].default_value = (*kelvin_rgb(rng.uniform(5000, 9000)), 1)
    background.inputs["Strength"].default_value = sky
    elevation = math.radians(rng.uniform(25, 88))
    azimuth = rng.uniform(0, 2 * math.pi)
    hard = rng.random() < 0.4
    if hard:
        bpy.ops.object.light_add(type="SUN")
        lamp = bpy.context.active_object
        lamp.data.energy = float(rng.uniform(2, 6))
        lamp.data.angle = math.radians(rng.uniform(0.5, 4))
        lamp.rotation_euler = Euler((math.pi / 2 - elevation, 0, azimuth + math.pi / 2))
    else:
        bpy.ops.object.light_add(type="AREA")
        lamp = bpy.context.active_object
        lamp.data.size = float(rng.uniform(2, 12))
        distance = float(rng.uniform(8, 20))
        lamp.data.energy = float(rng.uniform(300, 1500)) * (distance / 12) ** 2
        lamp.location = (distance * math.cos(elevation) * math.cos(azimuth),
                         distance * math.cos(elevation) * math.sin(azimuth),
                         distance * math.sin(elevation))
        lamp.rotation_euler = (Vector((0, 0, 0.5)) - lamp.location).to_track_quat(
            "-Z", "Y").to_euler()
    lamp.data.color = colour
    return {"kelvin": round(kelvin), "hard": hard, "sky": round(sky, 2)}


def add_camera(rng: np.random.Generator, target: Vector, px_per_unit: float, px: int) -> dict:
    """A camera off vertical by 0-50 degrees, its lens and distance such that one die edge
    is about ``px_per_unit`` pixels wide."""
    off = math.radians(rng.choice([rng.uniform(0, 15), rng.uniform(0, 50)]))
    azimuth = rng.uniform(0, 2 * math.pi)
    lens = float(rng.uniform(25, 85))
    sensor = 36.0
    # pixels per unit at distance d: px * lens / (sensor * d)
    distance = px * lens / (sensor * px_per_unit)
    direction = Vector((math.sin(off) * math.cos(azimuth), math.sin(off) * math.sin(azimuth),
                        math.cos(off)))
    bpy.ops.object.camera_add(location=target + direction * distance)
    cam = bpy.context.active_object
    cam.data.lens = lens
    cam.data.sensor_width = sensor
    roll = rng.uniform(0, 2 * math.pi)
    cam.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
    cam.rotation_euler.rotate_axis("Z", roll)
    bpy.context.scene.camera = cam
    bpy.context.view_layer.update()
    return {"off_vertical": round(math.degrees(off), 1), "lens": round(lens, 1)}


def top_face_box(die, px: int) -> list[float]:
    """The box, in pixels, of the die's upward face (its corners and bevel)."""
    scene = bpy.context.scene
    cam = scene.camera
    verts = [die.matrix_world @ v.co for v in die.data.vertices]
    top = max(v.z for v in verts)
    face = [v for v in verts if v.z > top - 0.02 * SIZE]
    pts = [world_to_camera_view(scene, cam, v) for v in face]
    xs = [p.x * px for p in pts]
    ys = [(1 - p.y) * px for p in pts]
    return [min(xs), min(ys), max(xs), max(ys)]


# --------------------------------------------------------------------------- samples

def render_sample(index: int, seed: int, out: Path, px: int, samples: int,
                  photos: list[Path], unreadable_share: float) -> dict:
    rng = np.random.default_rng(seed * 1_000_003 + index)
    clear_sample()
    table_kind = str(rng.choice(TABLES if photos else TABLES[:-1]))
    add_table(rng, table_kind, photos)
    body, body_kind, tone = body_material(rng)
    pips = pip_material(rng, tone)
    unreadable = rng.random() < unreadable_share
    kind = str(rng.choice(UNREADABLE_KINDS)) if unreadable else "d6"
    value = int(rng.integers(1, 7))
    info = {"table": table_kind, "body": body_kind}
    target = Vector((0, 0, SIZE / 2))
    centre_die = None
    if kind in ("d6", "cocked", "off_centre"):
        centre_die = build_die(rng, body, pips, "die")
        cocked = math.radians(rng.uniform(25, 40)) if kind == "cocked" else 0.0
        place_die(centre_die, value, float(rng.uniform(0, 2 * math.pi)), cocked)
    elif kind == "polyhedron":
        _, info["polyhedron"] = polyhedron(rng, body)
    # touching neighbours, most of the same set (a throw of one game's dice)
    neighbours = int(rng.choice([0, 0, 1, 2, 3, 4])) if kind != "bare" else 0
    for k in range(neighbours):
        same = rng.random() < 0.7
        nb_body, _, nb_tone = (body, body_kind, tone) if same else body_material(rng)
        nb_pips = pips if same else pip_material(rng, nb_tone)
        nb = build_die(rng, nb_body, nb_pips, f"neighbour{k}")
        angle = rng.uniform(0, 2 * math.pi)
        reach = SIZE * float(rng.uniform(1.05, 1.45))
        place_die(nb, int(rng.integers(1, 7)), float(rng.uniform(0, 2 * math.pi)),
                  math.radians(rng.uniform(20, 40)) if rng.random() < 0.1 else 0.0,
                  reach * math.cos(angle), reach * math.sin(angle))
    info["neighbours"] = neighbours
    info.update(add_light(rng))
    face_px = px / float(rng.uniform(2.0, 2.6))  # the top face about 40 % of the view
    info.update(add_camera(rng, target, face_px, px))
    if centre_die is not None:
        box = top_face_box(centre_die, px)
    else:
        half = face_px / 2
        box = [px / 2 - half, px / 2 - half, px / 2 + half, px / 2 + half]
    if kind == "off_centre":  # the box a detector might put on a die's edge
        dx, dy = rng.choice([-1, 1], 2) * rng.uniform(0.55, 0.8, 2) * face_px
        box = [box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy]
    name = f"{index:06d}.png"
    bpy.context.scene.render.filepath = str(out / name)
    bpy.ops.render.render(write_still=True)
    label = value if kind == "d6" else 0
    return {"file": name, "index": index, "seed": seed, "label": label, "kind": kind,
            "box": [round(float(b), 2) for b in box], **info}


def render_table(index: int, seed: int, out: Path, px: int, samples: int) -> dict:
    """A table without a d6 for the detector's hard negatives: a procedural surface seen
    from 0-50 degrees off vertical at a die-scale of 12-40 px, half of them with other
    polyhedral dice (d4, d8, d10, d20) lying on it."""
    rng = np.random.default_rng(seed * 1_000_003 + index)
    clear_sample()
    table_kind = str(rng.choice(TABLES[:-1]))
    add_table(rng, table_kind, [])
    others = int(rng.choice([0, 0, 1, 2, 3]))
    kinds = []
    for _ in range(others):
        body, _, _ = body_material(rng)
        obj, kind = polyhedron(rng, body)
        obj.location.x += float(rng.uniform(-4, 4))
        obj.location.y += float(rng.uniform(-4, 4))
        kinds.append(kind)
    info = {"table": table_kind, "polyhedra": kinds, **add_light(rng)}
    info.update(add_camera(rng, Vector((0, 0, 0)), float(rng.uniform(12, 40)), px))
    name = f"{index:06d}.png"
    bpy.context.scene.render.filepath = str(out / name)
    bpy.ops.render.render(write_still=True)
    return {"file": name, "index": index, "seed": seed, "label": 0, "kind": "table",
            "box": None, **info}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--px", type=int, default=96)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--unreadable", type=float, default=0.16)
    parser.add_argument("--tables", action="store_true",
                        help="render tables without a d6 (the detector's hard negatives)")
    parser.add_argument("--backgrounds", type=Path, default=None,
                        help="a folder of photos used as table textures")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    photos = sorted(p for p in args.backgrounds.rglob("*")
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png")) if args.backgrounds else []
    done = set()
    labels = args.out / "labels.jsonl"
    if labels.is_file():  # resumable: a killed run goes on where it stopped
        done = {json.loads(line)["index"] for line in labels.read_text().splitlines() if line}
    started = time.monotonic()
    reset_scene(args.px, args.samples)
    with labels.open("a") as sink:
        for index in range(args.start, args.start + args.count):
            if index in done:
                continue
            record = (render_table(index, args.seed, args.out, args.px, args.samples)
                      if args.tables else
                      render_sample(index, args.seed, args.out, args.px, args.samples, photos,
                                    args.unreadable))
            sink.write(json.dumps(record) + "\n")
            sink.flush()
            print(f"{index} {record['kind']} {record['label']} "
                  f"{time.monotonic() - started:.1f}s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    # Blender's own argv handling is not involved: bpy as a module leaves sys.argv alone
    sys.exit(main())
