#include "importers/cluster/rankdigestimporter.h"

#include "importers/cluster/rankdigestfile.h"

#include <QFileInfo>

namespace runlens::importers::cluster {

RankDigestImporter::RankDigestImporter(QString path)
    : m_path(std::move(path))
{ }

ImportUpdate RankDigestImporter::poll(const ImportControl&)
{
    ImportUpdate update;
    const RankDigestResult read = readRankDigestFile(m_path);
    update.bytesRead = QFileInfo(m_path).size();
    if (!read.digest) {
        update.status = models::ImportStatus::Failed;
        update.diagnostics.append({ models::Severity::Error, m_path, -1, -1, read.error });
        return update;
    }
    update.recordsRead = 1;
    update.rankDigest = read.digest;
    return update;
}

} // namespace runlens::importers::cluster
