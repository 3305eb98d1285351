#include "models/embeddings/embeddingset.h"

namespace runlens::models::embeddings {

QString EmbeddingSet::cell(int row, int column) const
{
    if (row < 0 || std::size_t(row) >= metadata.size())
        return {};
    const QStringList& cells = metadata[std::size_t(row)];
    return column >= 0 && column < cells.size() ? cells.at(column) : QString();
}

int EmbeddingSet::columnIndex(const QString& name) const
{
    return int(metadataColumns.indexOf(name));
}

EmbeddingSummary summarize(const EmbeddingSet& set)
{
    return { set.name, set.rows, set.dims, set.metadataColumns, set.hasSprite() };
}

} // namespace runlens::models::embeddings
