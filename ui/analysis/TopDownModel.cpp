#include "ui/analysis/TopDownModel.h"

#include "ui/analysis/SortableCells.h"
#include "ui/common/Units.h"

namespace wl::ui {

TopDownModel::TopDownModel(QObject* parent) : QAbstractItemModel(parent) {}

void TopDownModel::setTree(model::TracePtr trace, const analysis::TopDown& tree) {
    beginResetModel();
    m_trace = std::move(trace);
    m_tree = m_trace ? tree : analysis::TopDown{};
    endResetModel();
}

void TopDownModel::clear() {
    setTree(nullptr, {});
}

const analysis::TopDownNode* TopDownModel::nodeAt(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this || index.internalId() >= m_tree.nodes.size())
        return nullptr;
    return &m_tree.nodes[index.internalId()];
}

int TopDownModel::rowOf(std::uint32_t node) const {
    const std::uint32_t parent = m_tree.nodes[node].parent;
    return static_cast<int>(
        parent == analysis::kNoTopDownNode ? node : node - m_tree.nodes[parent].firstChild);
}

QModelIndex TopDownModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= kColumns || row >= rowCount(parent))
        return {};
    const analysis::TopDownNode* p = nodeAt(parent);
    const std::uint32_t node = p == nullptr ? static_cast<std::uint32_t>(row)
                                            : p->firstChild + static_cast<std::uint32_t>(row);
    return createIndex(row, column, static_cast<quintptr>(node));
}

QModelIndex TopDownModel::parent(const QModelIndex& child) const {
    const analysis::TopDownNode* n = nodeAt(child);
    if (n == nullptr || n->parent == analysis::kNoTopDownNode)
        return {};
    return createIndex(rowOf(n->parent), 0, static_cast<quintptr>(n->parent));
}

int TopDownModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return static_cast<int>(m_tree.rootCount);
    const analysis::TopDownNode* p = nodeAt(parent);
    return p != nullptr && parent.column() == 0 ? static_cast<int>(p->childCount) : 0;
}

int TopDownModel::columnCount(const QModelIndex&) const {
    return kColumns;
}

QVariant TopDownModel::data(const QModelIndex& index, int role) const {
    const analysis::TopDownNode* n = nodeAt(index);
    if (n == nullptr)
        return {};
    if (role == Qt::TextAlignmentRole) {
        return index.column() == kName ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    // Decoded only for the roles that show it (a sort asks for the numbers many times).
    const auto nameText = [&] {
        const std::string_view name = m_trace->str(n->nameId);
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    };
    if (role == Qt::ToolTipRole) {
        // What the node is and what its GPU time counts.
        const QString ops =
            n->gpuOps == 1
                ? tr("1 GPU op")
                : tr("%1 GPU ops").arg(units::grouped(static_cast<std::int64_t>(n->gpuOps)));
        return tr("%1 %2: %3 launched inside it")
            .arg(tr(analysis::toString(n->kind)), nameText(), ops);
    }
    const bool raw = role == kSortRole;
    if (role != Qt::DisplayRole && !raw)
        return {};
    switch (index.column()) {
        case kName:
            return nameText();
        case kCount:
            return cells::count(n->count, raw);
        case kHost:
            return cells::duration(n->hostNs, raw);
        case kGpu:
            return cells::duration(n->gpuNs, raw);
        default:
            return {};
    }
}

QVariant TopDownModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    static const char* kHeaders[] = {"Name", "Count", "Host time", "GPU time"};
    return section >= 0 && section < kColumns ? tr(kHeaders[section]) : QVariant();
}

}  // namespace wl::ui
