/* Trains the perceptron of mlp_sgd.tile from a C program: the llvm-x86
 * object of one step, called in a loop (docs/training.md).
 *
 *   tilec examples/train/mlp_sgd.tile --target=llvm-x86 \
 *       -D N=32 -D In=64 -D H=64 -D C=10 -o step.o
 *   cc -O2 examples/train/host_loop.c -I. step.o -lomp -lm -o host_loop
 *   ./host_loop [epochs]
 *
 * The data is synthetic: 2048 random inputs labelled by a fixed random
 * linear teacher, so the example needs no files. The step's outputs W1' ...
 * are its next inputs; since buffers passed to step() must not overlap,
 * the weights live in two sets that swap roles every step (the same
 * ping-pong tilec train does on a device).
 */
#include "step.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Batch = 32, In = 64, Hidden = 64, Classes = 10, Rows = 2048 };

/* A small deterministic generator: uniform in [-1, 1). */
static unsigned long long state = 42;
static float uniform(void) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((state >> 40) & 0xffffff) / (float)(1 << 23) - 1.0f;
}

struct Weights {
  float w1[In * Hidden], b1[Hidden], w2[Hidden * Classes], b2[Classes];
  float lossSum;
};

int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 5;
  static float x[Rows * In], teacher[In * Classes];
  static int32_t lab[Rows];
  for (int i = 0; i < In * Classes; ++i)
    teacher[i] = uniform();
  for (int r = 0; r < Rows; ++r) {
    float best = -INFINITY;
    for (int i = 0; i < In; ++i)
      x[r * In + i] = uniform();
    for (int c = 0; c < Classes; ++c) {
      float score = 0;
      for (int i = 0; i < In; ++i)
        score += x[r * In + i] * teacher[i * Classes + c];
      if (score > best) {
        best = score;
        lab[r] = c;
      }
    }
  }

  /* He-uniform initial weights: uniform(-1, 1) * sqrt(6 / fan_in). */
  static struct Weights sets[2];
  struct Weights *cur = &sets[0], *next = &sets[1];
  memset(cur, 0, sizeof(*cur));
  for (int i = 0; i < In * Hidden; ++i)
    cur->w1[i] = uniform() * sqrtf(6.0f / In);
  for (int i = 0; i < Hidden * Classes; ++i)
    cur->w2[i] = uniform() * sqrtf(6.0f / Hidden);

  for (int e = 1; e <= epochs; ++e) {
    cur->lossSum = 0;
    int steps = Rows / Batch;
    for (int s = 0; s < steps; ++s) {
      float loss;
      step(x + s * Batch * In, lab + s * Batch, cur->w1, cur->b1, cur->w2,
           cur->b2, &cur->lossSum, &loss, &next->lossSum, next->w1, next->b1,
           next->w2, next->b2);
      struct Weights *t = cur;
      cur = next;
      next = t;
    }
    printf("epoch %d/%d  loss %.6g\n", e, epochs, cur->lossSum / steps);
  }
  return 0;
}
