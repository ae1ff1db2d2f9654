// Hard cases for C++: raw strings, templates, classes, operators.
#include <string>
#include <vector>

namespace outer {
namespace inner {

template <typename T>
T maximum(T a, T b) {
    return a > b ? a : b;
}

class Widget : public Base {
public:
    Widget() : size_{0}, name_("}") {}
    explicit Widget(int size) : size_(size) {
        auto f = [this](int x) { return x + size_; };
        (void)f;
    }
    ~Widget() {}

    int size() const { return size_; }

    bool operator==(const Widget& other) const {
        return size_ == other.size_;
    }

    static std::string raw() {
        return R"x(raw } with )" and { )x";
    }

private:
    int size_;
    std::string name_;
};

int Widget::compute(int a) const noexcept {
    const char c = '}';
    long big = 1'000'000;
    return a + c + static_cast<int>(big);
}

}  // namespace inner
}  // namespace outer

template <class T>
class Box {
public:
    T get() const {
        return value;
    }
private:
    T value;
};

auto trailing(int x) -> int {
    std::vector<int> v{1, 2, 3};
    return x + v.size();
}

int main() {
    outer::inner::Widget w;
    return w.size();
}
