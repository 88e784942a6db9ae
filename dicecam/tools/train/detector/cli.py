"""``dicecam train detector``: render synthetic tables, train the die detector, export ONNX."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from dicecam.errors import InputError
from dicecam.tools.realdata import check_sources
from dicecam.tools.train.detector.training import CROWD_SCALES, train_detector

HELP = "train the die detector (tiny CenterNet) on synthetic tables and export it to ONNX"

#: The shipped model (``dicecam/models/detector.onnx``, what ``DieDetector`` loads).
DEFAULT_OUT = Path(__file__).resolve().parents[2] / "models" / "detector.onnx"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="where to write the ONNX model")
    parser.add_argument("--minutes", type=float, default=18.0,
                        help="wall-clock budget including rendering (default 18)")
    parser.add_argument("--tiles", type=int, default=1200,
                        help="synthetic 256x256 tiles to render (default 1200)")
    parser.add_argument("--steps", type=int, default=None,
                        help="train exactly this many steps instead of for --minutes "
                             "(reproduces a model whatever the machine's speed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch CPU threads (1 is fastest on a shared CPU)")
    parser.add_argument("--cache", metavar="DIR",
                        help="keep rendered tiles in DIR and reuse them on the next run")
    parser.add_argument("--weights", metavar="PT",
                        help="also keep the torch weights in PT (what --init fine-tunes)")
    parser.add_argument("--init", metavar="PT",
                        help="start from torch weights saved with --weights (fine-tuning)")
    parser.add_argument("--init-onnx", metavar="ONNX",
                        help="fine-tune this exported model (e.g. the shipped one; its batch "
                             "norms stay frozen) instead of training from scratch")
    parser.add_argument("--backgrounds", type=float, default=0.0, metavar="SHARE",
                        help="share of each batch cut from the real photos without dice "
                             "(hard negatives; never their held-out third; default 0)")
    parser.add_argument("--negatives", action="append", default=[], metavar="DIR",
                        help="also cut the --backgrounds share from these tables without a "
                             "die (`dicecam train render --tables`; repeatable)")
    parser.add_argument("--negatives-share", type=float, default=0.5, metavar="SHARE",
                        help="about this share of the hard negatives drawn from the renders, "
                             "the rest from the real photos without dice (default 0.5)")
    parser.add_argument("--pasted", type=int, default=0, metavar="N",
                        help="also render N tiles of dice drawn on the real photos without "
                             "dice (never their held-out third; default 0)")
    parser.add_argument("--lr", type=float, default=3e-3,
                        help="peak learning rate (default 3e-3; lower for fine-tuning)")
    parser.add_argument("--squash", type=float, default=0.0, metavar="SHARE",
                        help="share of tiles squeezed along one axis by up to 1.4 : 1 "
                             "(photos saved with another aspect; default 0)")
    parser.add_argument("--tilt", type=float, default=0.0, metavar="SHARE",
                        help="share of tiles seen from a camera 20-55 degrees off vertical "
                             "(the table turned, its dice stretched; default 0)")
    parser.add_argument("--copy-paste", type=int, default=0, metavar="N",
                        help="also make N tiles of the real tuning dice cut from their labels "
                             "and pasted onto the real photos without dice (default 0)")
    parser.add_argument("--crowd-tiles", type=int, default=0, metavar="THROWS",
                        help="also cut two tiles from each of THROWS crowded 54-die Dice Party "
                             "throws as the demo draws them (touching, piled dice; default 0)")
    parser.add_argument("--crowd-scales", type=float, nargs=2, default=list(CROWD_SCALES),
                        metavar=("LOW", "HIGH"),
                        help="those tiles at a scale drawn from LOW to HIGH times a frame's "
                             f"(default {CROWD_SCALES[0]:g} {CROWD_SCALES[1]:g})")
    parser.add_argument("--estimated-sizes", action="store_true",
                        help="learn the die's size from pxl's estimated faces too (0.7 of "
                             "the label box; by default only from labels that are faces)")
    parser.add_argument("--leave-out", action="append", default=[], metavar="SOURCE",
                        help="never use this real source (byler, webcam, pxl; repeatable): "
                             "benching it then gives the leave-one-source-out figure")
    parser.add_argument("--real-sources", action="append", default=None, metavar="SOURCE",
                        help="tune only on these real sources (repeatable; default: all)")


def run(args: argparse.Namespace) -> int:
    if args.steps is not None and args.steps < 1:
        raise InputError("--steps must be at least 1")
    if args.init and not Path(args.init).is_file():
        raise InputError(f"--init: no saved weights at {args.init}")
    if args.tiles < 1:
        raise InputError("--tiles must be at least 1")
    if args.init_onnx and not Path(args.init_onnx).is_file():
        raise InputError(f"--init-onnx: no model at {args.init_onnx}")
    if args.init and args.init_onnx:
        raise InputError("--init and --init-onnx: choose one starting point")
    if not 0 <= args.backgrounds < 0.7:
        raise InputError("--backgrounds must be a share from 0 to 0.7")
    if args.pasted < 0:
        raise InputError("--pasted must be 0 or more")
    if args.copy_paste < 0:
        raise InputError("--copy-paste must be 0 or more")
    if args.crowd_tiles < 0:
        raise InputError("--crowd-tiles must be 0 or more")
    if not 0.1 <= args.crowd_scales[0] <= args.crowd_scales[1] <= 4:
        raise InputError("--crowd-scales must be LOW <= HIGH, each from 0.1 to 4")
    if not 0 < args.lr <= 0.1:
        raise InputError("--lr must be above 0 and at most 0.1")
    if not 0 <= args.squash <= 1:
        raise InputError("--squash must be a share from 0 to 1")
    if not 0 <= args.tilt <= 1:
        raise InputError("--tilt must be a share from 0 to 1")
    for folder in args.negatives:
        if not (Path(folder) / "labels.jsonl").is_file():
            raise InputError(f"--negatives: no renders in {folder} (no labels.jsonl)")
    if not 0 < args.negatives_share < 1:
        raise InputError("--negatives-share must be between 0 and 1")
    if args.negatives and args.backgrounds <= 0:
        raise InputError("--negatives needs a --backgrounds share to be cut from them")
    leave_out = check_sources(args.leave_out) or ()
    real_sources = check_sources(args.real_sources)

    summary = train_detector(Path(args.out), minutes=args.minutes, pool_size=args.tiles,
                             seed=args.seed, threads=args.threads, steps=args.steps,
                             cache=Path(args.cache) if args.cache else None,
                             init=Path(args.init) if args.init else None,
                             weights_out=Path(args.weights) if args.weights else None,
                             real_sources=real_sources, leave_out=leave_out,
                             init_onnx=Path(args.init_onnx) if args.init_onnx else None,
                             backgrounds=args.backgrounds, pasted=args.pasted, lr=args.lr,
                             squash_share=args.squash, copy_paste=args.copy_paste,
                             crowd_throws=args.crowd_tiles,
                             crowd_scales=tuple(args.crowd_scales),
                             estimated_sizes=args.estimated_sizes,
                             negative_renders=tuple(Path(f) for f in args.negatives),
                             negative_render_share=args.negatives_share,
                             tilt_share=args.tilt, log=lambda line: print(line, flush=True))
    print(json.dumps(summary))
    return 0
