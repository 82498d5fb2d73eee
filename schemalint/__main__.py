from schemalint.cli import main

main()
