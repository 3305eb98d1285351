#pragma once

#include "tests/trust/mutators.h"

#include "models/core/artifactkind.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace runlens::test {

enum class Source { Samples, TestData, Inline };

/// One format: where its seed comes from, how it is cut small, what it is called in the run folder, how it is
/// read, and the damage only this format can be given.
struct SeedRow
{
    const char* name;
    Source source;
    const char* path; ///< below the samples or tests/data; for Inline the content itself
    const char* fileName; ///< as written in the case folder (readers and the sniffer look at names)
    models::ArtifactKind kind;
    bool profilerFolder = false; ///< read by a run's ProfilerImporter rather than createImporter()
    std::function<QByteArray(const QByteArray&)> cut = {};
    std::function<Mutations(const QByteArray& seed, std::uint64_t rowSeed)> hostile = {};
    /// For a file that is not a run artifact (a cache the program writes for itself): reads `bytes` from
    /// where the program keeps them and says what is wrong, or nothing; replaces the import boundary and the
    /// sniffer check. Runs in the child.
    std::function<QString(const QString& folder, const QByteArray& bytes)> read = {};
};

/// The formats of the corrupt-input test, one row each.
std::vector<SeedRow> seedRows();

} // namespace runlens::test
