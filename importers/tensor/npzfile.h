#pragma once

#include "importers/tensor/tensorlisting.h"

#include <QString>

namespace runlens::importers::tensor {

/// Lists the arrays of a numpy `.npz` archive (np.savez / np.savez_compressed) from their `.npy` headers.
/// Stored members are read through one read-only mapping of the archive shared by all of them, at the
/// offset their local header gives; compressed members are inflated on the first open() of their source and
/// shared while a Tensor holds them. Members that are not `.npy` arrays, encrypted members and members with
/// a bad header become diagnostics and are left out; an unreadable archive sets `error`. Object arrays are
/// refused, never unpickled. Runs on any thread.
TensorListing listNpzFile(const QString& path);

} // namespace runlens::importers::tensor
