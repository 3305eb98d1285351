#pragma once

#include "tests/trust/mutators.h"

#include <QByteArray>

#include <cstdint>

namespace runlens::test {

/// TFLite models built to cost: one operator table listed 100,000 times, an operator with 200,000 inputs,
/// subgraphs that are each other's WHILE bodies, and buffers whose >2 GB offset/size lie past the file.
Mutations tfliteHostile(const QByteArray& seed, std::uint64_t rowSeed);

} // namespace runlens::test
