#pragma once

#include "models/tensor/tensorcatalog.h"

#include <functional>
#include <memory>

class QObject;

namespace runlens::widgets::tensor {

/// Opens a source at once when that is cheap, else on a worker; `done` runs on `context`'s thread.
void openSource(const std::shared_ptr<const models::tensor::TensorSource>& source, QObject* context,
                std::function<void(const models::tensor::TensorResult&)> done);

} // namespace runlens::widgets::tensor
