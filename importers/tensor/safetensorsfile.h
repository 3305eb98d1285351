#pragma once

#include "importers/tensor/tensorlisting.h"

#include <QString>

namespace runlens::importers::tensor {

/// Lists the tensors of a `.safetensors` file (Hugging Face): an 8-byte little-endian header length, a JSON
/// header mapping each name to its dtype, shape and `data_offsets` (from the byte after the header), and the
/// little-endian data. Every entry is a view of one read-only mapping of the file shared by all of them;
/// `__metadata__` becomes `metadata`. Entries with an unknown dtype or offsets that do not fit the shape or
/// the file become diagnostics and are left out; a header that cannot be read sets `error`. Runs on any
/// thread.
TensorListing listSafetensorsFile(const QString& path);

} // namespace runlens::importers::tensor
