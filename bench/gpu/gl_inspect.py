#!/usr/bin/env python3
"""What NVIDIA's GLSL compiler makes of tilec's shaders.

  gl_inspect.py KERNELS.glsl [--out=DIR] [--device=N]

Compiles each shader of a glsl artefact (`//--- shader NAME` sections) on
the N-th EGL device (headless, as lib/Runtime/GL does; scripts/gpu-env.sh
points glvnd at NVIDIA's EGL), writes each program's binary
(glGetProgramBinary) to DIR/NAME.bin and, where the binary carries NVIDIA's
assembly (the `!!NVcp5.0` program NVIDIA's driver compiles from, before its
register allocation), that text to DIR/NAME.nvasm, and prints the counts of
the instructions the tiling is judged by: storage-buffer loads (LDB) and
stores, shared loads and stores, multiply-adds, integer divisions, and the
control flow the driver kept (IF: a branch, where OpenCL's compiler
predicates; REP: a loop). The evidence GPU-CPU-TILING.md asks for when a GL
kernel is slower than the same kernel through OpenCL. Standard library only.
"""

import argparse
import ctypes
import os
import re
import sys

EGL_PLATFORM_DEVICE = 0x313F
EGL_OPENGL_API = 0x30A2
EGL_NONE = 0x3038
EGL_CONTEXT_ATTRIBS = [0x3098, 4, 0x30FB, 3, 0x30FD, 0x1, EGL_NONE]  # 4.3 core
GL_COMPUTE_SHADER = 0x91B9
GL_COMPILE_STATUS = 0x8B81
GL_LINK_STATUS = 0x8B82
GL_INFO_LOG_LENGTH = 0x8B84
GL_PROGRAM_BINARY_LENGTH = 0x8741
MARKER = "//--- shader "

# The opcodes counted in NVIDIA's assembly, by prefix of the first word.
COUNTED = ("LDB", "STB", "LDS", "STS", "MAD.F", "DIV", "MOD", "IF", "REP",
           "BAR")


def fail(message):
    sys.exit("gl_inspect.py: " + message)


class GL:
    """The EGL and GL entry points used, resolved at run time."""

    def __init__(self, device_index):
        egl = ctypes.CDLL("libEGL.so.1")
        egl.eglGetProcAddress.restype = ctypes.c_void_p
        egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
        self.egl = egl

        def proc(name, restype, *argtypes):
            address = egl.eglGetProcAddress(name.encode())
            if not address:
                fail("no %s in this EGL/GL" % name)
            return ctypes.CFUNCTYPE(restype, *argtypes)(address)

        self.proc = proc
        query_devices = proc("eglQueryDevicesEXT", ctypes.c_uint, ctypes.c_int,
                             ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int))
        platform_display = proc("eglGetPlatformDisplayEXT", ctypes.c_void_p, ctypes.c_uint,
                                ctypes.c_void_p, ctypes.c_void_p)
        devices = (ctypes.c_void_p * 16)()
        count = ctypes.c_int(0)
        if not query_devices(16, devices, ctypes.byref(count)) or count.value <= device_index:
            fail("EGL lists %d device(s); --device=%d is not one" % (count.value, device_index))
        display = platform_display(EGL_PLATFORM_DEVICE, devices[device_index], None)
        egl.eglInitialize.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        if not display or not egl.eglInitialize(display, None, None):
            fail("eglInitialize failed on EGL device %d" % device_index)
        egl.eglBindAPI(EGL_OPENGL_API)
        attributes = (ctypes.c_int * len(EGL_CONTEXT_ATTRIBS))(*EGL_CONTEXT_ATTRIBS)
        egl.eglCreateContext.restype = ctypes.c_void_p
        egl.eglCreateContext.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_void_p]
        context = egl.eglCreateContext(display, None, None, attributes)
        egl.eglMakeCurrent.argtypes = [ctypes.c_void_p] * 4
        if not context or not egl.eglMakeCurrent(display, None, None, context):
            fail("no OpenGL 4.3 core context on EGL device %d" % device_index)
        uint, intp = ctypes.c_uint, ctypes.POINTER(ctypes.c_int)
        self.create_shader = proc("glCreateShader", uint, uint)
        self.shader_source = proc("glShaderSource", None, uint, ctypes.c_int,
                                  ctypes.POINTER(ctypes.c_char_p), intp)
        self.compile_shader = proc("glCompileShader", None, uint)
        self.get_shader = proc("glGetShaderiv", None, uint, uint, intp)
        self.shader_log = proc("glGetShaderInfoLog", None, uint, ctypes.c_int, intp,
                               ctypes.c_char_p)
        self.create_program = proc("glCreateProgram", uint)
        self.attach = proc("glAttachShader", None, uint, uint)
        self.link = proc("glLinkProgram", None, uint)
        self.get_program = proc("glGetProgramiv", None, uint, uint, intp)
        self.program_log = proc("glGetProgramInfoLog", None, uint, ctypes.c_int, intp,
                                ctypes.c_char_p)
        self.program_binary = proc("glGetProgramBinary", None, uint, ctypes.c_int, intp,
                                   ctypes.POINTER(ctypes.c_uint), ctypes.c_void_p)

    def _log(self, getter, log, handle):
        length = ctypes.c_int(0)
        getter(handle, GL_INFO_LOG_LENGTH, ctypes.byref(length))
        text = ctypes.create_string_buffer(max(length.value, 1))
        log(handle, len(text), None, text)
        return text.value.decode(errors="replace")

    def binary(self, name, source):
        """The program binary of one compute shader, and the driver's logs."""
        shader = self.create_shader(GL_COMPUTE_SHADER)
        text = ctypes.c_char_p(source.encode())
        self.shader_source(shader, 1, ctypes.byref(text), None)
        self.compile_shader(shader)
        status = ctypes.c_int(0)
        self.get_shader(shader, GL_COMPILE_STATUS, ctypes.byref(status))
        log = self._log(self.get_shader, self.shader_log, shader)
        if not status.value:
            fail("%s does not compile:\n%s" % (name, log))
        program = self.create_program()
        self.attach(program, shader)
        self.link(program)
        self.get_program(program, GL_LINK_STATUS, ctypes.byref(status))
        log += self._log(self.get_program, self.program_log, program)
        if not status.value:
            fail("%s does not link:\n%s" % (name, log))
        length = ctypes.c_int(0)
        self.get_program(program, GL_PROGRAM_BINARY_LENGTH, ctypes.byref(length))
        data = ctypes.create_string_buffer(max(length.value, 1))
        fmt = ctypes.c_uint(0)
        self.program_binary(program, length.value, ctypes.byref(length), ctypes.byref(fmt),
                            data)
        return data.raw[:length.value], log


def split_shaders(text):
    parts = text.split(MARKER)[1:]
    if not parts:
        fail("no '%sNAME' line: not a glsl artefact of tilec" % MARKER)
    return [(part.split("\n", 1)[0].strip(), part.split("\n", 1)[1]) for part in parts]


def nv_assembly(blob):
    """The `!!NVcp5.0` ... `END` program inside a binary, or None."""
    start = blob.find(b"!!NV")
    if start < 0:
        return None
    end = re.compile(rb"\nEND\s*(\x00|$)").search(blob, start)  # not ENDIF
    return blob[start:end.start() + 4 if end else len(blob)].decode(errors="replace")


def opcode_counts(assembly):
    words = [line.split()[0] for line in assembly.splitlines() if line.strip()]
    counts = ["%s %d" % (prefix, sum(1 for w in words if w.startswith(prefix)))
              for prefix in COUNTED]
    return "instructions %d: %s" % (len(words), ", ".join(counts))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("artefact")
    parser.add_argument("--out", default="gl-inspect")
    parser.add_argument("--device", type=int, default=0, help="EGL device index")
    args = parser.parse_args()
    with open(args.artefact) as source:
        shaders = split_shaders(source.read())
    gl = GL(args.device)
    os.makedirs(args.out, exist_ok=True)
    for name, source in shaders:
        blob, log = gl.binary(name, source)
        with open(os.path.join(args.out, name + ".bin"), "wb") as out:
            out.write(blob)
        print("%s: binary %d bytes%s" % (name, len(blob),
                                          ("; log: " + log.strip()) if log.strip() else ""))
        assembly = nv_assembly(blob)
        if assembly is None:
            continue
        with open(os.path.join(args.out, name + ".nvasm"), "w") as out:
            out.write(assembly)
        print("  " + opcode_counts(assembly))


if __name__ == "__main__":
    main()
