#include "widgets/tensor/tensoropen.h"

#include "models/core/workerpool.h"
#include "widgets/tensor/tensorpanel.h"

#include <QtConcurrent>

namespace runlens::tensorview {

void openSource(const std::shared_ptr<const tensor::TensorSource>& source, QObject* context,
                std::function<void(const tensor::TensorResult&)> done)
{
    if (!source) {
        done(tensor::TensorResult { std::nullopt, TensorPanel::tr("The tensor has no readable source.") });
        return;
    }
    if (source->isImmediate()) {
        done(source->open());
        return;
    }
    QtConcurrent::run(workerPool(), [source] {
        return source->open();
    }).then(context, [done = std::move(done)](const tensor::TensorResult& result) { done(result); });
}

} // namespace runlens::tensorview
