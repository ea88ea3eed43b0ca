//===- Interpreter.cpp - placeholder until the interpreter lands ---------===//
