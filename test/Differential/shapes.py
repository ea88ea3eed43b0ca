"""Sizes for the random program generator.

Small sizes (1 to 7) reach the corner cases of index arithmetic (unit axes,
padding that covers a whole axis); large ones reach what small ones never
do: register tiles, vector loops and their remainders, cache blocks and
work-group tiling. The large sizes sit just below, at and just above the
tile sizes the cost model picks (lib/Schedule):

- CPU (CPUDefaultSchedule.cpp): vectors of 16 f32 (AVX-512; 8 with AVX2,
  8 f64, 64 i8), a lane tile of up to 4 vectors (64), 6 rows per register
  tile;
- GPU (GPUDefaultSchedule.cpp, Candidates.cpp): work-groups of up to 256
  items (16 x 16 for a contraction), a 2 x 2 register tile once an axis
  spans 4 x 2 x 16 = 128, thread tiles of 1, 2 and 4;

plus primes, which no tile divides. A program's tensors are bounded in
element count (MAX_ELEMENTS each, PROGRAM_ELEMENTS in all) so that the whole
random suite stays fast on every backend.
"""

import math

SMALL = list(range(1, 8))
TILE_EDGES = [5, 6, 7, 8, 9, 12, 13, 15, 16, 17, 31, 32, 33, 47, 48, 49,
              63, 64, 65, 127, 128, 129, 255, 256, 257]
PRIMES = [11, 19, 23, 37, 61, 97, 131, 193, 251, 293]
LARGE = TILE_EDGES + PRIMES

# Most elements one tensor may hold, and all the values of one program.
MAX_ELEMENTS = 8192
PROGRAM_ELEMENTS = 40000
# Most output cells along one contraction axis (the generator's own sizes
# come from the inputs; an output axis may flatten two of them).
MAX_AXIS = 300


def draw_size(rng, large_share):
    """One size: small, or (with probability `large_share`) large."""
    if rng.random() < large_share:
        return rng.choice(LARGE)
    return rng.choice(SMALL)


def draw_palette(rng):
    """The sizes a program's inputs share (shared sizes make contractions
    and broadcasts line up). Three programs in four have large sizes."""
    large_share = rng.choice([0.0, 0.4, 0.6, 0.8])
    return [draw_size(rng, large_share) for _ in range(4)]


def fit_shape(rng, shape, limit=MAX_ELEMENTS):
    """`shape` with its largest dimensions replaced by small sizes until it
    holds at most `limit` elements."""
    shape = list(shape)
    while math.prod(shape) > limit:
        k = max(range(len(shape)), key=lambda j: shape[j])
        shape[k] = rng.choice(SMALL)
    return shape
