//! `Callback::reform` for functions that may have nothing to send: a
//! select's value that does not parse, an event from another element.

use yew::Callback;

/// [`Callback::reform`], sending only what `f` returns as `Some`.
pub trait ReformSome<U> {
    /// A callback of `T` that emits `f(t)` on `self` when it is `Some`.
    fn reform_some<T, F>(&self, f: F) -> Callback<T>
    where
        T: 'static,
        F: Fn(T) -> Option<U> + 'static;
}

impl<U: 'static> ReformSome<U> for Callback<U> {
    fn reform_some<T, F>(&self, f: F) -> Callback<T>
    where
        T: 'static,
        F: Fn(T) -> Option<U> + 'static,
    {
        let this = self.clone();
        Callback::from(move |value: T| {
            if let Some(out) = f(value) {
                this.emit(out);
            }
        })
    }
}
