"""Java target languages: the JDK toolchain, Java source handling, compiling many programs per
``javac`` call, and running each compiled program in a JVM of its own inside the sandbox, judged on
the bytes its HTTP library wrote to a recorder outside its process (:mod:`.recorder`, :mod:`.worker`)."""
