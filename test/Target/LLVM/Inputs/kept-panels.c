/* Calls the object of kept-panels.mlir three times and says, each time,
 * which B its product was made with: model_changed_inputs[1] = 0 makes the
 * call reuse the panels packed from the B of the call before. */
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
  printf("first call: %s\n", which());
  /* Said unchanged, but changed in place: the kept panels show. */
  fill(B, 8 * 16, 5);
  model_changed_inputs[1] = 0;
  model(A, B, C);
  printf("B said unchanged: %s\n", which());
  model_changed_inputs[1] = 1;
  model(A, B, C);
  printf("B said changed: %s\n", which());
  return 0;
}
