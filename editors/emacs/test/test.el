;;; test.el --- batch test of the Eglot setup for pgn-lsp  -*- lexical-binding: t -*-
;; Run by test/run.sh: loads the Emacs snippet of README.md
;; ($PGN_SNIPPET), opens copies of editors/fixtures/*.pgn in $PGN_TEST_DIR,
;; waits for the illegal-move diagnostic, checks format on save (at a line width given
;; as initializationOptions), then exits
;; (status 0 on success, 1 with a "FAIL:" line otherwise).

(require 'package)
(package-initialize)
(require 'eglot)
(require 'flymake)
(require 'cl-lib)

(defvar pgn-test-dir (getenv "PGN_TEST_DIR"))
(defvar pgn-test-timeout
  (/ (string-to-number (or (getenv "PGN_TEST_TIMEOUT_MS") "20000")) 1000.0))

(defun pgn-test-say (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun pgn-test-fail (fmt &rest args)
  (pgn-test-say "FAIL: %s" (apply #'format fmt args))
  (let ((events (get-buffer "*EGLOT (pgn/pgn-mode) events*")))
    (when events
      (pgn-test-say "--- end of the Eglot events buffer")
      (with-current-buffer events
        (pgn-test-say "%s" (buffer-substring (max (point-min) (- (point-max) 3000)) (point-max))))))
  (kill-emacs 1))

(defun pgn-test-server-exited ()
  "Non-nil when every server pid recorded by run.sh's wrapper has exited."
  (let* ((file (expand-file-name "server.pids" pgn-test-dir))
         (pids (and (file-exists-p file)
                    (with-temp-buffer
                      (insert-file-contents file)
                      (mapcar #'string-to-number (split-string (buffer-string)))))))
    (and pids
         (cl-every (lambda (pid) (not (eq 0 (ignore-errors (signal-process pid 0))))) pids))))

(defun pgn-test-wait (what pred)
  "Run the command loop hooks and process output until PRED holds."
  (let ((deadline (+ (float-time) pgn-test-timeout)))
    (while (not (funcall pred))
      (when (pgn-test-server-exited)
        (pgn-test-fail "the pgn-lsp server exited while waiting for %s (does it speak LSP on stdio?)" what))
      (when (> (float-time) deadline)
        (pgn-test-fail "timed out after %.0f s waiting for %s" pgn-test-timeout what))
      ;; Batch Emacs has no command loop: run what it would run.
      (run-hooks 'post-command-hook)
      (when (bound-and-true-p flymake-mode) (flymake-start))
      (accept-process-output nil 0.05))))

(defun pgn-test-open (name)
  (find-file (expand-file-name name pgn-test-dir))
  (unless (eq major-mode 'pgn-mode)
    (pgn-test-fail "%s opened in %s, expected pgn-mode" name major-mode))
  (pgn-test-wait (format "Eglot to connect to pgn-lsp for %s" name)
                 (lambda () (eglot-managed-p)))
  (current-buffer))

(defun pgn-test-run ()
  (load (getenv "PGN_SNIPPET") nil t)
  ;; A server setting given as the README says, in the snippet's entry: the line width of 20
  ;; must outlast the empty workspace configuration that Eglot sends just after connecting,
  ;; and wrap the moves of messy.pgn on save (step 2).
  (setf (alist-get 'pgn-mode eglot-server-programs)
        '("pgn-lsp" :initializationOptions (:format (:lineWidth 20))))
  ;; 1. Diagnostic for the illegal move.
  (with-current-buffer (pgn-test-open "illegal.pgn")
    (pgn-test-say "ok - illegal.pgn: pgn-mode, Eglot connected")
    (let (found)
      (pgn-test-wait "an illegal-move diagnostic"
                     (lambda ()
                       (setq found (cl-find-if
                                    (lambda (d) (string-match-p "illegal" (flymake-diagnostic-text d)))
                                    (flymake-diagnostics)))))
      (let ((line (line-number-at-pos (flymake-diagnostic-beg found)))
            (expected (save-excursion (goto-char (point-min))
                                      (search-forward "3. Nf3")
                                      (line-number-at-pos))))
        (unless (= line expected)
          (pgn-test-fail "illegal-move diagnostic on line %d, expected %d" line expected))
        (pgn-test-say "ok - diagnostic on line %d: %s" line (flymake-diagnostic-text found)))))
  ;; 2. Format on save.
  (with-current-buffer (pgn-test-open "messy.pgn")
    (set-buffer-modified-p t)           ; as after an edit: save does nothing otherwise
    (save-buffer)
    (let ((on-disk (with-temp-buffer
                     (insert-file-contents (expand-file-name "messy.pgn" pgn-test-dir))
                     (buffer-string))))
      (unless (and (string-search "1. e4 e5 2. Nf3 Nc6\n*" on-disk)
                   (not (string-search "1.e4" on-disk)))
        (pgn-test-fail "messy.pgn was not formatted on save, at a line width of 20; on disk:\n%s"
                       on-disk))
      (pgn-test-say "ok - save formatted messy.pgn at the line width of initializationOptions")))
  (pgn-test-say "ok - all checks passed"))

(condition-case err
    (pgn-test-run)
  (error (pgn-test-fail "%s" (error-message-string err))))
(kill-emacs 0)
