//===- OneDnnBaselines.cpp - Cases computed with oneDNN primitives -------===//
//
// Written for oneDNN 2.x (Debian 12 has 2.6): an operation descriptor, then
// a primitive descriptor, then the primitive. Everything but the execution
// happens when the runner is made, as an inference engine would do it once.
//
//===----------------------------------------------------------------------===//

#include "Baselines.h"

#include <oneapi/dnnl/dnnl.hpp>

namespace bench {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

namespace {
/// The CPU engine and its stream, made once per process.
struct Context {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
};
} // namespace

static Context &context() {
  static Context ctx;
  return ctx;
}

/// A runner executing `prim` with `args`, the destination memory pointed
/// at the caller's buffer on each run.
static Runner execute(dnnl::primitive prim,
                      std::unordered_map<int, dnnl::memory> args) {
  return [prim, args](float *out) {
    args.at(DNNL_ARG_DST).set_data_handle(out);
    prim.execute(context().stream, args);
    context().stream.wait();
  };
}

/// A stride 1 convolution on NHWC data with the window size and the groups
/// of `userWeights` (the caller's filter layout), padded to keep the image
/// size.
static Runner convolution(int64_t n, int64_t h, int64_t w, int64_t ci,
                          int64_t co, const dnnl::memory::desc &userWeights,
                          const CaseData &data) {
  int64_t pad = userWeights.dims().back() / 2;
  Context &ctx = context();
  dnnl::memory::desc src({n, ci, h, w}, dt::f32, tag::nhwc);
  dnnl::memory::desc dst({n, co, h, w}, dt::f32, tag::nhwc);
  dnnl::memory::desc weightsAny(userWeights.dims(), dt::f32, tag::any);
  dnnl::convolution_forward::primitive_desc pd(
      dnnl::convolution_forward::desc(
          dnnl::prop_kind::forward_inference,
          dnnl::algorithm::convolution_direct, src, weightsAny, dst,
          /*strides=*/{1, 1}, /*padding_l=*/{pad, pad},
          /*padding_r=*/{pad, pad}),
      ctx.engine);
  dnnl::memory user(userWeights, ctx.engine,
                    const_cast<float *>(data.inputs[1].data()));
  dnnl::memory weights(pd.weights_desc(), ctx.engine);
  dnnl::reorder(user, weights).execute(ctx.stream, user, weights);
  ctx.stream.wait();
  return execute(
      dnnl::convolution_forward(pd),
      {{DNNL_ARG_SRC, dnnl::memory(src, ctx.engine,
                                   const_cast<float *>(data.inputs[0].data()))},
       {DNNL_ARG_WEIGHTS, weights},
       {DNNL_ARG_DST, dnnl::memory(dst, ctx.engine, nullptr)}});
}

Runner oneDnnRunner(const Case &c, const CaseData &data) {
  Context &ctx = context();
  float *in0 = const_cast<float *>(data.inputs[0].data());
  if (c.kind == "matmul") {
    int64_t m = c.at("M"), k = c.at("K"), n = c.at("N");
    dnnl::memory::desc a({m, k}, dt::f32, tag::ab), b({k, n}, dt::f32, tag::ab),
        out({m, n}, dt::f32, tag::ab);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, out), ctx.engine);
    return execute(
        dnnl::matmul(pd),
        {{DNNL_ARG_SRC, dnnl::memory(a, ctx.engine, in0)},
         {DNNL_ARG_WEIGHTS,
          dnnl::memory(b, ctx.engine,
                       const_cast<float *>(data.inputs[1].data()))},
         {DNNL_ARG_DST, dnnl::memory(out, ctx.engine, nullptr)}});
  }
  if (c.kind == "conv1x1") {
    int64_t ci = c.at("CI"), co = c.at("CO");
    return convolution(c.at("N"), c.at("H"), c.at("W"), ci, co,
                       {{co, ci, 1, 1}, dt::f32, tag::hwio}, data);
  }
  if (c.kind == "conv3x3") {
    int64_t ci = c.at("CI"), co = c.at("CO");
    return convolution(c.at("N"), c.at("H"), c.at("W"), ci, co,
                       {{co, ci, 3, 3}, dt::f32, tag::hwio}, data);
  }
  if (c.kind == "depthwise3x3") {
    // Grouped weights are (groups, out per group, in per group, kh, kw);
    // the [3, 3, C] filter is that with C groups of one in and one out.
    int64_t ch = c.at("C");
    return convolution(c.at("N"), c.at("H"), c.at("W"), ch, ch,
                       {{ch, 1, 1, 3, 3}, dt::f32, tag::hwigo}, data);
  }
  dnnl::memory::desc rows({c.at("R"), c.at("C")}, dt::f32, tag::ab);
  if (c.kind == "gelu") {
    dnnl::eltwise_forward::primitive_desc pd(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference,
                                    dnnl::algorithm::eltwise_gelu_tanh, rows,
                                    0.0f, 0.0f),
        ctx.engine);
    return execute(dnnl::eltwise_forward(pd),
                   {{DNNL_ARG_SRC, dnnl::memory(rows, ctx.engine, in0)},
                    {DNNL_ARG_DST, dnnl::memory(rows, ctx.engine, nullptr)}});
  }
  if (c.kind == "layer_norm") {
    dnnl::memory::desc vector({c.at("C")}, dt::f32, tag::a);
    dnnl::layer_normalization_forward::primitive_desc pd(
        dnnl::layer_normalization_forward::desc(
            dnnl::prop_kind::forward_inference, rows, 1e-5f,
            dnnl::normalization_flags::use_scale |
                dnnl::normalization_flags::use_shift),
        ctx.engine);
    auto input = [&](size_t i) {
      return dnnl::memory(vector, ctx.engine,
                          const_cast<float *>(data.inputs[i].data()));
    };
    return execute(dnnl::layer_normalization_forward(pd),
                   {{DNNL_ARG_SRC, dnnl::memory(rows, ctx.engine, in0)},
                    {DNNL_ARG_SCALE, input(1)},
                    {DNNL_ARG_SHIFT, input(2)},
                    {DNNL_ARG_DST, dnnl::memory(rows, ctx.engine, nullptr)}});
  }
  // softmax along the rows
  dnnl::softmax_forward::primitive_desc pd(
      dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference, rows,
                                  /*softmax_axis=*/1),
      ctx.engine);
  return execute(dnnl::softmax_forward(pd),
                 {{DNNL_ARG_SRC, dnnl::memory(rows, ctx.engine, in0)},
                  {DNNL_ARG_DST, dnnl::memory(rows, ctx.engine, nullptr)}});
}

} // namespace bench
