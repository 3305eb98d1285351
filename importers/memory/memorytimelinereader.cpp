#include "memorytimelinereader.h"

namespace runlens::memory {

MemoryReadResult readMemoryTimeline(const QString& path, const ImportControl& control)
{
    Q_UNUSED(control);
    MemoryReadResult result;
    auto profile = std::make_shared<MemoryProfile>();
    profile->kind = MemorySourceKind::MemoryTimeline;
    profile->paths = QStringList { path };
    result.profile = profile;
    return result;
}

MemoryReadResult readMemoryTimelineBytes(const std::string& bytes, const QString& name, const ImportControl& control)
{
    Q_UNUSED(bytes);
    return readMemoryTimeline(name, control);
}

} // namespace runlens::memory
