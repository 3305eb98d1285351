#include "runmanifest.h"

namespace runlens {

QStringList RunManifest::runs() const
{
    QStringList out;
    for (const Artifact& artifact : artifacts) {
        if (out.isEmpty() || out.constLast() != artifact.run) {
            if (!out.contains(artifact.run))
                out.append(artifact.run);
        }
    }
    return out;
}

QList<int> RunManifest::artifactsOfRun(const QString& run) const
{
    QList<int> out;
    for (int i = 0; i < artifacts.size(); ++i) {
        if (artifacts[i].run == run)
            out.append(i);
    }
    return out;
}

int RunManifest::indexOfPath(const QString& path) const
{
    for (int i = 0; i < artifacts.size(); ++i) {
        if (artifacts[i].path == path)
            return i;
    }
    return -1;
}

} // namespace runlens
