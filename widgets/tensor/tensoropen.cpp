#include "widgets/tensor/tensoropen.h"

#include "models/core/workerpool.h"
#include "widgets/tensor/tensorpanel.h"

#include <QtConcurrent>

namespace runlens::widgets::tensor {

void openSource(const std::shared_ptr<const models::tensor::TensorSource>& source, QObject* context,
                std::function<void(const models::tensor::TensorResult&)> done)
{
    if (!source) {
        done(models::tensor::TensorResult { std::nullopt, TensorPanel::tr("The tensor has no readable source.") });
        return;
    }
    if (source->isImmediate()) {
        done(source->open());
        return;
    }
    QtConcurrent::run(models::workerPool(), [source] {
        return source->open();
    }).then(context, [done = std::move(done)](const models::tensor::TensorResult& result) { done(result); });
}

} // namespace runlens::widgets::tensor
