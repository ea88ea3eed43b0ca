/* Calls the object of kept-panels.mlir with each value of B's byte in
 * model_changed_inputs and says which B each product was made with: 1
 * packs into the call's own memory, 2 into the kept panels, 0 reuses
 * them. */
#include "model.h"

#include <stdio.h>
#include <string.h>

static float A[6 * 8], B[8 * 16], C[6 * 16], firstB[8 * 16];

static void fill(float *values, int count, int shift) {
  for (int i = 0; i < count; ++i)
    values[i] = (float)((i * 7 + shift) % 11 - 5);
}

/* Whether C is A times `b` (small integers: the sums are exact). */
static int isProduct(const float *b) {
  for (int m = 0; m < 6; ++m)
    for (int n = 0; n < 16; ++n) {
      float sum = 0;
      for (int k = 0; k < 8; ++k)
        sum += A[m * 8 + k] * b[k * 16 + n];
      if (C[m * 16 + n] != sum)
        return 0;
    }
  return 1;
}

static const char *which(void) {
  if (isProduct(B))
    return "this B";
  return isProduct(firstB) ? "the first B" : "neither";
}

int main(void) {
  fill(A, 6 * 8, 0);
  fill(B, 8 * 16, 3);
  memcpy(firstB, B, sizeof B);
  printf("flags at load: %d %d\n", model_changed_inputs[0],
         model_changed_inputs[1]);
  model(A, B, C);
  printf("1: %s\n", which());
  model_changed_inputs[1] = 2;
  model(A, B, C);
  printf("2: %s\n", which());
  /* Said unchanged, but changed in place: the kept panels show. */
  fill(B, 8 * 16, 5);
  model_changed_inputs[1] = 0;
  model(A, B, C);
  printf("0 after a change: %s\n", which());
  /* A call with 1 leaves the kept panels alone. */
  model_changed_inputs[1] = 1;
  model(A, B, C);
  printf("1: %s\n", which());
  model_changed_inputs[1] = 0;
  model(A, B, C);
  printf("0: %s\n", which());
  return 0;
}
