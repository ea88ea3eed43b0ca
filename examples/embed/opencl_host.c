/* opencl_host.c - runs kernels compiled by tilec with plain OpenCL calls.
 *
 *   tilec examples/matmul.tile -o kernel.cl        # and kernel.cl.json
 *   cc examples/embed/opencl_host.c -lOpenCL -o opencl_host
 *   ./opencl_host kernel.cl.json
 *
 * Everything the host needs is in the launch manifest: the kernels in launch
 * order, each argument's buffer, the buffers' sizes, and the global and local
 * work sizes. This program reads it with a small JSON reader of its own
 * (C has none), fills every f32 input with a fixed pattern, runs the kernels
 * on the first OpenCL device and prints every output. For the `main` of
 * examples/matmul.tile it also checks C against the product computed here and
 * exits 1 on a mismatch.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- A minimal JSON reader: enough for the manifest -------------------- */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JKind;
typedef struct JValue JValue;
struct JValue {
  JKind kind;
  double num;
  char *str;      /* J_STR; also the key when inside an object */
  JValue *items;  /* J_ARR and J_OBJ children */
  int count;
  char *key;
};

static const char *skipSpace(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
    ++p;
  return p;
}

static const char *parseValue(const char *p, JValue *out, int depth);

static const char *parseString(const char *p, char **out) {
  /* The manifest holds file names and identifiers: escapes are copied
   * through except \" and \\, which is all tilec writes. */
  size_t n = 0, cap = 16;
  char *s = malloc(cap);
  for (++p; *p && *p != '"'; ++p) {
    if (*p == '\\' && p[1])
      ++p;
    if (n + 1 == cap)
      s = realloc(s, cap *= 2);
    s[n++] = *p;
  }
  if (*p != '"') {
    free(s);
    return NULL;
  }
  s[n] = 0;
  *out = s;
  return p + 1;
}

static const char *parseList(const char *p, JValue *out, char close,
                             int depth) {
  int cap = 4;
  out->items = malloc(cap * sizeof(JValue));
  out->count = 0;
  p = skipSpace(p + 1);
  if (*p == close)
    return p + 1;
  for (;;) {
    if (out->count == cap)
      out->items = realloc(out->items, (cap *= 2) * sizeof(JValue));
    JValue *item = &out->items[out->count++];
    memset(item, 0, sizeof *item);
    p = skipSpace(p);
    if (close == '}') {
      if (*p != '"' || !(p = parseString(p, &item->key)))
        return NULL;
      p = skipSpace(p);
      if (*p++ != ':')
        return NULL;
    }
    if (!(p = parseValue(skipSpace(p), item, depth + 1)))
      return NULL;
    p = skipSpace(p);
    if (*p == ',') {
      ++p;
      continue;
    }
    return *p == close ? p + 1 : NULL;
  }
}

static const char *parseValue(const char *p, JValue *out, int depth) {
  if (depth > 32)
    return NULL;
  if (*p == '{') {
    out->kind = J_OBJ;
    return parseList(p, out, '}', depth);
  }
  if (*p == '[') {
    out->kind = J_ARR;
    return parseList(p, out, ']', depth);
  }
  if (*p == '"') {
    out->kind = J_STR;
    return parseString(p, &out->str);
  }
  if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
    out->kind = J_BOOL;
    out->num = *p == 't';
    return p + (*p == 't' ? 4 : 5);
  }
  if (!strncmp(p, "null", 4)) {
    out->kind = J_NULL;
    return p + 4;
  }
  char *end;
  out->kind = J_NUM;
  out->num = strtod(p, &end);
  return end == p ? NULL : end;
}

static const JValue *field(const JValue *obj, const char *key) {
  for (int i = 0; obj && obj->kind == J_OBJ && i < obj->count; ++i)
    if (!strcmp(obj->items[i].key, key))
      return &obj->items[i];
  return NULL;
}

static long number(const JValue *obj, const char *key) {
  const JValue *v = field(obj, key);
  return v && v->kind == J_NUM ? (long)v->num : 0;
}

static const char *text(const JValue *obj, const char *key) {
  const JValue *v = field(obj, key);
  return v && v->kind == J_STR ? v->str : "";
}

/* ---- Files and errors -------------------------------------------------- */

static char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc(n + 1);
  if (fread(data, 1, n, f) != (size_t)n) {
    free(data);
    data = NULL;
  } else {
    data[n] = 0;
    *size = n;
  }
  fclose(f);
  return data;
}

static void check(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, "opencl_host: %s failed (OpenCL error %d)\n", what, err);
    exit(3);
  }
}

/* The artefact's path: the manifest's folder + its "artefact" name. */
static char *artefactPath(const char *manifestPath, const char *artefact) {
  const char *slash = strrchr(manifestPath, '/');
  size_t dir = slash ? (size_t)(slash - manifestPath + 1) : 0;
  char *path = malloc(dir + strlen(artefact) + 1);
  memcpy(path, manifestPath, dir);
  strcpy(path + dir, artefact);
  return path;
}

/* ---- The matmul check -------------------------------------------------- */

static float pattern(long i) { return (float)(i % 7) - 3.0f; }

/* C = A x B for examples/matmul.tile's main: A f32[4, 6], B f32[6, 5]. */
static int checkMatmul(const float *c) {
  enum { M = 4, K = 6, N = 5 };
  int failures = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float expected = 0;
      for (int k = 0; k < K; ++k)
        expected += pattern(m * K + k) * pattern(k * N + n);
      failures += fabsf(c[m * N + n] - expected) > 1e-4f;
    }
  return failures;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: opencl_host KERNEL.cl.json\n");
    return 2;
  }
  size_t size;
  char *json = readFile(argv[1], &size);
  JValue manifest;
  memset(&manifest, 0, sizeof manifest);
  if (!json || !parseValue(skipSpace(json), &manifest, 0)) {
    fprintf(stderr, "opencl_host: cannot read the manifest %s\n", argv[1]);
    return 1;
  }
  char *sourcePath = artefactPath(argv[1], text(&manifest, "artefact"));
  char *source = readFile(sourcePath, &size);
  if (!source) {
    fprintf(stderr, "opencl_host: cannot read %s\n", sourcePath);
    return 1;
  }

  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  check(err, "clGetPlatformIDs");
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL),
        "clGetDeviceIDs");
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  check(err, "clCreateCommandQueue");
  const char *sources[] = {source};
  cl_program program =
      clCreateProgramWithSource(context, 1, sources, NULL, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                          log, NULL);
    fprintf(stderr, "opencl_host: build failed:\n%s\n", log);
    return 3;
  }

  /* One device buffer per manifest buffer; inputs get the fixed pattern. */
  const JValue *buffers = field(&manifest, "buffers");
  int nbuf = buffers ? buffers->count : 0;
  cl_mem *mem = calloc(nbuf ? nbuf : 1, sizeof(cl_mem));
  for (int i = 0; i < nbuf; ++i) {
    const JValue *b = &buffers->items[i];
    long id = number(b, "id"), bytes = number(b, "bytes");
    if (id < 0 || id >= nbuf) {
      fprintf(stderr, "opencl_host: buffer id %ld out of range\n", id);
      return 1;
    }
    mem[id] = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    if (!strcmp(text(b, "role"), "input")) {
      if (strcmp(text(b, "dtype"), "f32")) {
        fprintf(stderr, "opencl_host: this example fills f32 inputs only\n");
        return 1;
      }
      float *values = malloc(bytes);
      for (long e = 0; e < bytes / 4; ++e)
        values[e] = pattern(e);
      check(clEnqueueWriteBuffer(queue, mem[id], CL_TRUE, 0, bytes, values, 0,
                                 NULL, NULL),
            "clEnqueueWriteBuffer");
      free(values);
    }
  }

  /* The kernels, in the manifest's order. */
  const JValue *kernels = field(&manifest, "kernels");
  for (int k = 0; kernels && k < kernels->count; ++k) {
    const JValue *desc = &kernels->items[k];
    cl_kernel kernel = clCreateKernel(program, text(desc, "name"), &err);
    check(err, "clCreateKernel");
    const JValue *args = field(desc, "args");
    for (int a = 0; args && a < args->count; ++a) {
      long id = number(&args->items[a], "buffer");
      check(clSetKernelArg(kernel, a, sizeof(cl_mem), &mem[id]),
            "clSetKernelArg");
    }
    size_t global[3], local[3];
    const JValue *g = field(desc, "global"), *l = field(desc, "local");
    for (int d = 0; d < 3; ++d) {
      global[d] = g && d < g->count ? (size_t)g->items[d].num : 1;
      local[d] = l && d < l->count ? (size_t)l->items[d].num : 1;
    }
    check(clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, local, 0,
                                 NULL, NULL),
          "clEnqueueNDRangeKernel");
    clReleaseKernel(kernel);
  }
  check(clFinish(queue), "clFinish");

  /* Print the outputs (f32) and check examples/matmul.tile's C. */
  int failures = 0;
  for (int i = 0; i < nbuf; ++i) {
    const JValue *b = &buffers->items[i];
    if (strcmp(text(b, "role"), "output") || strcmp(text(b, "dtype"), "f32"))
      continue;
    long bytes = number(b, "bytes");
    float *values = malloc(bytes);
    check(clEnqueueReadBuffer(queue, mem[number(b, "id")], CL_TRUE, 0, bytes,
                              values, 0, NULL, NULL),
          "clEnqueueReadBuffer");
    const JValue *shape = field(b, "shape");
    long row = shape && shape->count ? (long)shape->items[shape->count - 1].num
                                     : 1;
    for (long e = 0; e < bytes / 4; ++e) {
      if (e % row == 0)
        printf("%s:", text(b, "name"));
      printf(" %g%s", values[e], (e + 1) % row ? "" : "\n");
    }
    if (!strcmp(text(b, "name"), "C") && bytes == 4 * 4 * 5)
      failures += checkMatmul(values);
    free(values);
  }
  printf("%s\n", failures ? "MISMATCH" : "ok");
  return failures != 0;
}
