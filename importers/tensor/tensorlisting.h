#pragma once

#include "importers/core/filemapping.h"
#include "models/core/diagnostic.h"
#include "models/tensor/tensor.h"
#include "models/tensor/tensorcatalog.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QMap>
#include <QString>

#include <memory>
#include <mutex>

namespace runlens::importers::tensor {

/// The tensors a container file (`.npz`, `.safetensors`) holds, as far as its headers tell, with a source
/// per tensor to read its values. `error` is set when the file as a whole cannot be read (then `tensors`
/// holds what was listed before the damage); problems with single entries are `diagnostics` and those
/// entries are left out. `metadata` is the file's free-form string map (safetensors `__metadata__`).
struct TensorListing
{
    QList<models::tensor::TensorInfo> tensors;
    QString error;
    models::Diagnostics diagnostics;
    QMap<QString, QString> metadata;
};

/// Bytes of a file mapped read-only (see FileMapping), kept while any Tensor views them; damage() tells when
/// the file shrank under the mapping.
class MappedTensorData final : public models::tensor::TensorData
{
public:
    explicit MappedTensorData(std::shared_ptr<const FileMapping> mapping)
        : m_mapping(std::move(mapping))
    { }
    const std::byte* data() const override { return m_mapping->data(); }
    std::int64_t size() const override { return m_mapping->size(); }
    QString damage() const override { return m_mapping->damaged() ? m_mapping->damageMessage() : QString(); }

private:
    std::shared_ptr<const FileMapping> m_mapping;
};

/// One read-only mapping of a container file shared by the sources of all its entries: mapped on the first
/// open() and kept while any Tensor still refers to it, so an archive of many members costs one mapping.
/// Thread safe.
class SharedFileMapping
{
public:
    /// `expectedSize` is the size the file had when it was listed; a different size means it changed since.
    SharedFileMapping(QString path, std::int64_t expectedSize)
        : m_path(std::move(path))
        , m_expectedSize(expectedSize)
    { }

    const QString& path() const { return m_path; }
    std::int64_t expectedSize() const { return m_expectedSize; }

    /// The mapping, or nullptr with `error` naming the file.
    std::shared_ptr<const models::tensor::TensorData> get(QString& error) const
    {
        const std::lock_guard lock(m_mutex);
        if (auto data = m_data.lock())
            return data;
        const qint64 size = QFileInfo(m_path).size();
        if (size != m_expectedSize) {
            error = translate("%1: the file changed since it was listed (%2 bytes, was %3); open it again")
                        .arg(m_path)
                        .arg(size)
                        .arg(m_expectedSize);
            return nullptr;
        }
        if (m_expectedSize <= 0) {
            error = translate("%1: the file is empty").arg(m_path);
            return nullptr;
        }
        // The file is unmapped when the last view lets go of it.
        std::shared_ptr<const FileMapping> mapping = FileMapping::map(m_path, 0, m_expectedSize, error);
        if (!mapping)
            return nullptr;
        auto data = std::make_shared<const MappedTensorData>(std::move(mapping));
        m_data = data;
        return data;
    }

private:
    static QString translate(const char* text) { return QCoreApplication::translate("runlens::TensorContainer", text); }

    QString m_path;
    std::int64_t m_expectedSize = 0;
    mutable std::mutex m_mutex;
    mutable std::weak_ptr<const models::tensor::TensorData> m_data;
};

/// A tensor viewed in place in a mapped container file: `layout` is the Tensor without its data, its
/// `offset` counted from the start of the file.
class MappedTensorSource final : public models::tensor::TensorSource
{
public:
    MappedTensorSource(std::shared_ptr<const SharedFileMapping> mapping, models::tensor::Tensor layout)
        : m_mapping(std::move(mapping))
        , m_layout(std::move(layout))
    { }

    models::tensor::TensorResult open() const override
    {
        models::tensor::TensorResult result;
        std::shared_ptr<const models::tensor::TensorData> data = m_mapping->get(result.error);
        if (data) {
            result.tensor = m_layout;
            result.tensor->data = std::move(data);
        }
        return result;
    }

private:
    std::shared_ptr<const SharedFileMapping> m_mapping;
    models::tensor::Tensor m_layout;
};

} // namespace runlens::importers::tensor
