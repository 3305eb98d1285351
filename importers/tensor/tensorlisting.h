#pragma once

#include "core/diagnostic.h"
#include "tensor/tensor.h"
#include "tensor/tensorcatalog.h"

#include <QCoreApplication>
#include <QFile>
#include <QList>
#include <QMap>
#include <QString>

#include <memory>
#include <mutex>

namespace runlens::tensor {

/// The tensors a container file (`.npz`, `.safetensors`) holds, as far as its headers tell, with a source
/// per tensor to read its values. `error` is set when the file as a whole cannot be read (then `tensors`
/// holds what was listed before the damage); problems with single entries are `diagnostics` and those
/// entries are left out. `metadata` is the file's free-form string map (safetensors `__metadata__`).
struct TensorListing
{
    QList<TensorInfo> tensors;
    QString error;
    Diagnostics diagnostics;
    QMap<QString, QString> metadata;
};

/// Bytes owned by something else (a file mapping), kept alive through `owner` while any Tensor views them.
class OwnedBytesData final : public TensorData
{
public:
    OwnedBytesData(std::shared_ptr<const void> owner, const std::byte* bytes, std::int64_t size)
        : m_owner(std::move(owner))
        , m_bytes(bytes)
        , m_size(size)
    { }
    const std::byte* data() const override { return m_bytes; }
    std::int64_t size() const override { return m_size; }

private:
    std::shared_ptr<const void> m_owner;
    const std::byte* m_bytes = nullptr;
    std::int64_t m_size = 0;
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

    /// The mapping, or nullptr with `error` naming the file.
    std::shared_ptr<const TensorData> get(QString& error) const
    {
        const std::lock_guard lock(m_mutex);
        if (auto data = m_data.lock())
            return data;
        auto file = std::make_unique<QFile>(m_path);
        if (!file->open(QIODevice::ReadOnly)) {
            error = translate("%1: cannot open: %2").arg(m_path, file->errorString());
            return nullptr;
        }
        if (file->size() != m_expectedSize) {
            error = translate("%1: the file changed since it was listed (%2 bytes, was %3); open it again")
                        .arg(m_path)
                        .arg(file->size())
                        .arg(m_expectedSize);
            return nullptr;
        }
        uchar* bytes = m_expectedSize > 0 ? file->map(0, m_expectedSize) : nullptr;
        if (!bytes) {
            error = translate("%1: cannot map the file into memory: %2").arg(m_path, file->errorString());
            return nullptr;
        }
        // The file is unmapped and closed when the last view lets go of it.
        std::shared_ptr<QFile> owner(file.release(), [bytes](QFile* f) {
            f->unmap(bytes);
            delete f;
        });
        auto data = std::make_shared<const OwnedBytesData>(std::move(owner), reinterpret_cast<const std::byte*>(bytes),
                                                           m_expectedSize);
        m_data = data;
        return data;
    }

private:
    static QString translate(const char* text) { return QCoreApplication::translate("runlens::TensorContainer", text); }

    QString m_path;
    std::int64_t m_expectedSize = 0;
    mutable std::mutex m_mutex;
    mutable std::weak_ptr<const TensorData> m_data;
};

/// A tensor viewed in place in a mapped container file: `layout` is the Tensor without its data, its
/// `offset` counted from the start of the file.
class MappedTensorSource final : public TensorSource
{
public:
    MappedTensorSource(std::shared_ptr<const SharedFileMapping> mapping, Tensor layout)
        : m_mapping(std::move(mapping))
        , m_layout(std::move(layout))
    { }

    TensorResult open() const override
    {
        TensorResult result;
        std::shared_ptr<const TensorData> data = m_mapping->get(result.error);
        if (data) {
            result.tensor = m_layout;
            result.tensor->data = std::move(data);
        }
        return result;
    }

private:
    std::shared_ptr<const SharedFileMapping> m_mapping;
    Tensor m_layout;
};

} // namespace runlens::tensor
