/* cl-build.c - builds OpenCL C files on the first OpenCL device.
 *
 *   cl-build FILE.cl...      exit 0 if every file builds with -cl-std=CL1.2,
 *                            else print the file's build log and exit 1;
 *                            exit 2 when there is no OpenCL device at all.
 *   cl-build --has EXT       exit 0 if the device supports extension EXT.
 *
 * The lit tests of the OpenCL emitter build it with the system compiler, so
 * that "the device's compiler accepts what tilec wrote" is checked without
 * tilec's runtime.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (fread(text, 1, size, file) != (size_t)size) {
    fclose(file);
    free(text);
    return NULL;
  }
  text[size] = 0;
  fclose(file);
  return text;
}

static int build(cl_context context, cl_device_id device, const char *path) {
  char *source = readFile(path);
  if (!source) {
    fprintf(stderr, "%s: cannot read\n", path);
    return 1;
  }
  cl_int err;
  const char *sources[] = {source};
  cl_program program =
      clCreateProgramWithSource(context, 1, sources, NULL, &err);
  if (err == CL_SUCCESS)
    err = clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                          &size);
    char *log = malloc(size + 1);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log,
                          NULL);
    log[size] = 0;
    fprintf(stderr, "%s: build failed (%d):\n%s\n", path, err, log);
    free(log);
  }
  clReleaseProgram(program);
  free(source);
  return err == CL_SUCCESS ? 0 : 1;
}

int main(int argc, char **argv) {
  cl_platform_id platform;
  cl_device_id device;
  cl_uint count = 0;
  if (clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0 ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &count) !=
          CL_SUCCESS || count == 0) {
    fprintf(stderr, "no OpenCL device\n");
    return 2;
  }
  if (argc == 3 && strcmp(argv[1], "--has") == 0) {
    char extensions[8192] = {0};
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions - 1,
                    extensions, NULL);
    return strstr(extensions, argv[2]) ? 0 : 1;
  }
  cl_int err;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "cannot create an OpenCL context (%d)\n", err);
    return 2;
  }
  int failures = 0;
  for (int i = 1; i < argc; ++i)
    failures += build(context, device, argv[i]);
  clReleaseContext(context);
  return failures ? 1 : 0;
}
