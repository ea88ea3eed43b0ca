//===- GLSLTranslation.h - tilec-translate's GLSL emitters ------*- C++ -*-===//

#ifndef TILEC_TARGET_GLSL_GLSLTRANSLATION_H
#define TILEC_TARGET_GLSL_GLSLTRANSLATION_H

namespace tilec {

/// `tilec-to-glsl`: the shaders of a gpu level, as emitGLSL writes them
/// (no pipeline runs first, so a test feeds the emitter minimal IR).
void registerGLSLTranslations();

} // namespace tilec

#endif // TILEC_TARGET_GLSL_GLSLTRANSLATION_H
