/* Campaign Ledger: the page behaviour that templates used to write inline (the
   Content-Security-Policy allows no inline script and no eval). Loaded by base.html. */
(function () {
  "use strict";

  // <button data-confirm="…">: ask before the form is submitted (plain or htmx).
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // <button data-print>: print the page.
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) {
      window.print();
    }
  });

  // Inside .htmx-errors-swap, a 400 answer (a form with its errors) replaces the target
  // like a success would.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.target.closest(".htmx-errors-swap") && event.detail.xhr.status === 400) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // <form data-reset-on-success>: cleared after a successful htmx request.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target.closest("form[data-reset-on-success]");
    if (form && event.detail.successful) {
      form.reset();
    }
  });
})();
