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

  // <select data-submit-on-change>: submitted as soon as a value is chosen (the language
  // select); its form's .no-js-only button stays for browsers without script.
  function hideNoJsButtons() {
    document.querySelectorAll("[data-submit-on-change]").forEach(function (select) {
      if (select.form) {
        select.form.querySelectorAll(".no-js-only").forEach(function (b) { b.hidden = true; });
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", hideNoJsButtons);
  } else {
    hideNoJsButtons();
  }
  document.addEventListener("change", function (event) {
    var select = event.target.closest("[data-submit-on-change]");
    if (select && select.form) {
      select.form.requestSubmit ? select.form.requestSubmit() : select.form.submit();
    }
  });

  // Live pages: a hidden .live-poller (templates/inbox/_live.html) asks every ten seconds
  // whether the page changed for this reader; when it did, the answer fires
  // "ledger-changed" and the regions it names (data-live-regions: "#id #id") are fetched
  // again from this page's URL and swapped in, with the header's inbox badge. A region holding the field being typed in
  // is left alone until the next change.
  document.addEventListener("ledger-changed", function (event) {
    var poller = event.target.closest && event.target.closest("[data-live-regions]");
    if (!poller) {
      return;
    }
    var selectors = poller.getAttribute("data-live-regions").split(/\s+/).filter(Boolean);
    selectors.push("#inbox-link"); // the header badge follows too
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) {
          return;
        }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var focused = document.activeElement;
        selectors.forEach(function (selector) {
          var old = document.querySelector(selector);
          var next = fresh.querySelector(selector);
          if (!old || !next) {
            return;
          }
          if (focused && old.contains(focused) && focused.matches("input, select, textarea")) {
            return;
          }
          var node = document.importNode(next, true);
          old.replaceWith(node);
          if (window.htmx) {
            window.htmx.process(node);
          }
        });
        document.dispatchEvent(new CustomEvent("ledger-refreshed"));
      });
  });
})();
