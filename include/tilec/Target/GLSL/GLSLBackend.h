//===- GLSLBackend.h - The glsl target for the registry ---------*- C++ -*-===//

#ifndef TILEC_TARGET_GLSL_GLSLBACKEND_H
#define TILEC_TARGET_GLSL_GLSLBACKEND_H

namespace tilec {

void registerGLSLBackend();

} // namespace tilec

#endif // TILEC_TARGET_GLSL_GLSLBACKEND_H
